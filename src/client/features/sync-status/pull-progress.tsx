import { MAX_PAGE_SIZE, type Entity } from '#shared';
import type { SyncStatus } from '../../sync';
import { useI18n } from '../../lib/i18n';

/** `list` of the messages below: one select, so each language words each list its own way. */
const LIST: Record<Entity, string> = {
  site: 'site',
  collection: 'collection',
  pool: 'pool',
  poolTest: 'poolTest',
};

/**
 * "Downloading sites 8,000 of 20,000" with a bar, while a pull brings a list longer than one
 * request (a first pull of a district's sites takes a while and must not look stuck). Shorter
 * pulls, done in a blink, show nothing: a flash of text would only distract.
 */
export function PullProgress({ pulling }: { pulling: SyncStatus['pulling'] }) {
  const intl = useI18n();
  if (!pulling) return null;
  const { entity, received, total } = pulling;
  if ((total ?? received) <= MAX_PAGE_SIZE) return null;
  const list = LIST[entity];
  const text =
    total === null
      ? intl.formatMessage(
          {
            id: 'pull.progressOpen',
            defaultMessage:
              'Downloading {list, select, site {sites} collection {collections} pool {pools} other {pool tests}}: {received, number}',
          },
          { list, received },
        )
      : intl.formatMessage(
          {
            id: 'pull.progress',
            defaultMessage:
              'Downloading {list, select, site {sites} collection {collections} pool {pools} other {pool tests}} {received, number} of {total, number}',
          },
          { list, received: Math.min(received, total), total },
        );
  return (
    <div className="pull-progress">
      <span>{text}</span>
      <progress
        value={total === null ? undefined : Math.min(received, total)}
        max={total ?? undefined}
        aria-label={text}
      />
    </div>
  );
}
