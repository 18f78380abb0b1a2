import type { IntlShape } from 'react-intl';
import { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS, type ImportReport } from '#shared/schemas/site-import';
import { serverMessage } from '../../lib/i18n';
import type { SendFailure } from './send-site-file';

/** Why a file was not imported, in the person's language. */
export function failureWords(
  intl: IntlShape,
  failure: SendFailure,
  report: ImportReport | undefined,
): string {
  const t = intl.formatMessage;
  switch (failure.kind) {
    case 'timeout':
      return t({
        id: 'siteImport.failure.timeout',
        defaultMessage:
          'The server did not answer in time. Choose the file again to see what was imported: importing it again never makes a site twice',
      });
    case 'offline':
      return t({
        id: 'siteImport.failure.offline',
        defaultMessage:
          'No connection to the office server: the file was not sent. Try again when the tablet is online',
      });
    case 'unreadable':
      return t({
        id: 'siteImport.failure.unreadable',
        defaultMessage: 'The server answered in a way this app does not understand',
      });
    case 'server': {
      const { error } = failure;
      // A write refused partway (the upstream's 422 too, whose code is validation_failed): sites
      // may have been written; the table below says at which row, why and how many.
      if (error.code !== 'reauth_required' && report?.errors.some((e) => e.code === 'write_failed'))
        return t({
          id: 'siteImport.failure.stopped',
          defaultMessage:
            'The import stopped partway. The table below says at which row and why; import the same file again to finish.',
        });
      // An import with bad rows: nothing was written, the table below lists every problem.
      if (error.code === 'validation_failed' && report && report.errors.length > 0) {
        const rows = new Set(report.errors.map((e) => e.row)).size;
        return t(
          {
            id: 'siteImport.failure.badRows',
            defaultMessage:
              'Nothing was imported: {rows, plural, one {# row has a problem. Fix it} other {# rows have a problem. Fix them}} and import the file again',
          },
          { rows },
        );
      }
      if (error.code === 'payload_too_large')
        return t(
          {
            id: 'siteImport.failure.tooLarge',
            defaultMessage:
              'The file is too large: at most {rows, number} sites and {mb, number} MB a file. Split it and import each part.',
          },
          { rows: MAX_IMPORT_ROWS, mb: MAX_IMPORT_BYTES / (1024 * 1024) },
        );
      if (error.code === 'unsupported_media_type')
        return t({
          id: 'siteImport.failure.mediaType',
          defaultMessage: 'Choose a CSV or GeoJSON file.',
        });
      return serverMessage(intl, error);
    }
  }
}
