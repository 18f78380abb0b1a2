import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useState } from 'react';
import { useDb } from '../../db/db-context';
import { useLookups } from '../../db/use-lookups';
import { sinceIn, useI18n, useLanguage, type LanguageChoice } from '../../lib/i18n';
import { usePlaceAccuracyLimit } from '../../lib/use-gps';
import { Banner } from '../../ui/banner';
import { Dialog } from '../../ui/dialog';
import type { IntlShape } from 'react-intl';

/** Choices for the GPS accuracy that is enough to place a site (metres). */
const PLACE_ACCURACY_CHOICES = [5, 10, 20, 30, 50, 100, 200];

type StorageInfo = { persisted: boolean | null; usage: number | null; quota: number | null };

/** Megabytes with one decimal, in the language's digits ("12.3 MB", "12,3 MB"). */
function megabytes(intl: IntlShape, bytes: number | null): string {
  return bytes === null
    ? intl.formatMessage({ id: 'settings.unknown', defaultMessage: 'unknown' })
    : intl.formatMessage(
        { id: 'settings.megabytes', defaultMessage: '{mb} MB' },
        {
          mb: intl.formatNumber(bytes / 1024 / 1024, {
            minimumFractionDigits: 1,
            maximumFractionDigits: 1,
          }),
        },
      );
}

async function readStorage(): Promise<StorageInfo> {
  const storage = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  const persisted = storage?.persisted ? await storage.persisted().catch(() => null) : null;
  const estimate = storage?.estimate ? await storage.estimate().catch(() => null) : null;
  return { persisted, usage: estimate?.usage ?? null, quota: estimate?.quota ?? null };
}

type Props = {
  username: string;
  agencyName: string;
  /** Signs out; `removeData`: and removes this user's data from the tablet. */
  onSignOut: (options?: { removeData?: boolean }) => void;
  onRefreshLookups: () => Promise<string>;
};

/**
 * Settings: storage persistence and use, lookups freshness, the GPS accuracy needed to place a
 * site, who is signed in, sign out.
 */
export function SettingsScreen({ username, agencyName, onSignOut, onRefreshLookups }: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const language = useLanguage();
  const { storedAt } = useLookups();
  // Null when the lists were stamped while the clock ran ahead: never "just now" then.
  const lookupsAge = storedAt ? sinceIn(intl, storedAt) : null;
  const db = useDb();
  // Every outbox entry is a change the server has not acknowledged (waiting, parked or in conflict).
  // Counted when Sign out is tapped, and live only while the question is open: IndexedDB counts
  // by walking every entry, and a count kept live on this screen ran again with every answer a
  // drain wrote (a walk of a week's queue per change sent).
  /** The unsent count the sign-out question was asked with; null while it is not asked. */
  const [confirmSignOut, setConfirmSignOut] = useState<number | null>(null);
  const asking = confirmSignOut !== null;
  const counted = useLiveQuery(
    () => (asking ? db.outbox.count() : Promise.resolve(null)),
    [db, asking],
  );
  const unsent = counted ?? confirmSignOut ?? 0;
  const signOut = async () => {
    const waiting = await db.outbox.count();
    if (waiting > 0) setConfirmSignOut(waiting);
    else onSignOut();
  };
  /**
   * "Remove this tablet's data": null while not asked; else the unsent count it was asked with.
   * Removal is offered only when nothing is unsent: a change on this tablet alone is never deleted.
   */
  const [confirmRemove, setConfirmRemove] = useState<number | null>(null);
  const askRemove = async () => setConfirmRemove(await db.outbox.count());
  const [placeAccuracy, setPlaceAccuracy] = usePlaceAccuracyLimit();
  const [storage, setStorage] = useState<StorageInfo | null>(null);
  const [refreshing, setRefreshing] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void readStorage().then((s) => live && setStorage(s));
    return () => {
      live = false;
    };
  }, []);
  /** The browser's answer to the last "Keep data on this tablet", said until the screen is left. */
  const [persistAnswer, setPersistAnswer] = useState<'granted' | 'refused' | null>(null);
  const askPersist = async () => {
    const granted = (await navigator.storage?.persist?.().catch(() => false)) === true;
    setPersistAnswer(granted ? 'granted' : 'refused');
    setStorage(await readStorage());
  };
  const refresh = async () => {
    setRefreshing(t({ id: 'settings.refreshing', defaultMessage: 'Refreshing…' }));
    setRefreshing(await onRefreshLookups());
  };
  return (
    <section className="screen">
      <h1>{t({ id: 'settings.title', defaultMessage: 'Settings' })}</h1>
      <h2>{t({ id: 'settings.language', defaultMessage: 'Language' })}</h2>
      <div className="field">
        <label htmlFor="language">
          {t({ id: 'settings.languageLabel', defaultMessage: 'Language of the app' })}
        </label>
        <select
          id="language"
          value={language.choice}
          onChange={(e) => language.setChoice(e.target.value as LanguageChoice)}
          aria-describedby="language-hint"
        >
          <option value="auto">
            {t({
              id: 'settings.languageAuto',
              defaultMessage: 'Automatic (the tablet’s language)',
            })}
          </option>
          {/* Each language by its own name, so a person who cannot read the current one finds theirs. */}
          <option value="en" lang="en">
            English
          </option>
          <option value="es" lang="es">
            Español
          </option>
        </select>
        <p id="language-hint" className="hint-neutral">
          {t({
            id: 'settings.languageHint',
            defaultMessage:
              'Kept for you on this tablet. Sites, species and your records are not translated.',
          })}
        </p>
      </div>
      <h2>{t({ id: 'settings.storage', defaultMessage: 'Storage on this tablet' })}</h2>
      {storage?.persisted === false ? (
        <Banner
          tone="warn"
          actions={
            <button type="button" className="button" onClick={askPersist}>
              {t({ id: 'settings.keepData', defaultMessage: 'Keep data on this tablet' })}
            </button>
          }
        >
          {t({
            id: 'settings.notPersistent',
            defaultMessage:
              'Storage is not persistent: the browser may clear unsent records when space runs low. Install the app to the home screen or allow persistent storage.',
          })}
        </Banner>
      ) : null}
      <p
        role="status"
        className={persistAnswer === 'refused' ? 'field-hint' : undefined}
        style={persistAnswer ? undefined : { margin: 0 }}
      >
        {persistAnswer === 'granted'
          ? t({
              id: 'settings.persistGranted',
              defaultMessage: 'The browser will keep this tablet’s data, even when space runs low.',
            })
          : persistAnswer === 'refused'
            ? t({
                id: 'settings.persistRefused',
                defaultMessage:
                  'The browser refused to keep this tablet’s data for good (it decides from how the app is used). Install Trapline to the home screen, or allow storage for this site in the browser’s settings, then tap again. Until then, sync often.',
              })
            : null}
      </p>
      <dl className="facts">
        <dt>{t({ id: 'settings.persistent', defaultMessage: 'Persistent storage' })}</dt>
        <dd data-testid="storage-persisted">
          {storage === null
            ? t({ id: 'settings.checking', defaultMessage: 'checking…' })
            : storage.persisted === null
              ? t({ id: 'settings.unknown', defaultMessage: 'unknown' })
              : storage.persisted
                ? t({ id: 'settings.yes', defaultMessage: 'Yes' })
                : t({ id: 'settings.no', defaultMessage: 'No' })}
        </dd>
        <dt>{t({ id: 'settings.used', defaultMessage: 'Used' })}</dt>
        <dd>
          {t(
            { id: 'settings.usedOf', defaultMessage: '{used} of {quota}' },
            {
              used: megabytes(intl, storage?.usage ?? null),
              quota: megabytes(intl, storage?.quota ?? null),
            },
          )}
        </dd>
        <dt>{t({ id: 'settings.lookups', defaultMessage: 'Lookups' })}</dt>
        <dd data-testid="lookups-age">
          {storedAt === null
            ? t({ id: 'settings.lookupsMissing', defaultMessage: 'not downloaded yet' })
            : lookupsAge === null
              ? t({
                  id: 'settings.lookupsUpdatedUnknown',
                  defaultMessage: 'updated: time unknown (the tablet’s clock was changed)',
                })
              : t(
                  { id: 'settings.lookupsUpdated', defaultMessage: 'updated {ago}' },
                  { ago: lookupsAge },
                )}
        </dd>
      </dl>
      <div className="row">
        <button type="button" className="button" onClick={refresh}>
          {t({ id: 'settings.refreshLookups', defaultMessage: 'Refresh lookups' })}
        </button>
        {refreshing ? <span role="status">{refreshing}</span> : null}
      </div>
      <h2>{t({ id: 'settings.gps', defaultMessage: 'GPS' })}</h2>
      <div className="field">
        <label htmlFor="place-accuracy">
          {t({
            id: 'settings.placeAccuracy',
            defaultMessage: 'GPS accuracy needed to place a site',
          })}
        </label>
        <select
          id="place-accuracy"
          value={placeAccuracy}
          onChange={(e) => setPlaceAccuracy(Number(e.target.value))}
          aria-describedby="place-accuracy-hint"
        >
          {[...new Set([...PLACE_ACCURACY_CHOICES, placeAccuracy])]
            .sort((a, b) => a - b)
            .map((m) => (
              <option key={m} value={m}>
                {t({ id: 'settings.metres', defaultMessage: '±{m, number} m' }, { m })}
              </option>
            ))}
        </select>
        <p id="place-accuracy-hint" className="hint-neutral">
          {t({
            id: 'settings.placeAccuracyHint',
            defaultMessage:
              'A fix coarser than this is shown in red with a warning when a site or a Zero Site collection takes its place from the GPS. Kept on this tablet.',
          })}
        </p>
      </div>
      <h2>{t({ id: 'settings.account', defaultMessage: 'Account' })}</h2>
      <p>
        {t(
          {
            id: 'settings.signedInAs',
            defaultMessage: 'Signed in as <b>{username}</b>, {agencyName}.',
          },
          { username, agencyName, b: (chunks) => <strong>{chunks}</strong> },
        )}
      </p>
      <div className="row wrap">
        <button type="button" className="button button-danger" onClick={() => void signOut()}>
          {t({ id: 'settings.signOut', defaultMessage: 'Sign out' })}
        </button>
        <button
          type="button"
          className="button button-danger"
          aria-describedby="remove-data-hint"
          onClick={() => void askRemove()}
        >
          {t({ id: 'settings.removeData', defaultMessage: 'Remove this tablet’s data' })}
        </button>
      </div>
      <p id="remove-data-hint" className="hint-neutral">
        {t({
          id: 'settings.removeDataHint',
          defaultMessage:
            'Signs you out and deletes your sites, collections, pools, tests and kept reports from this tablet, for a tablet handed on or a shared one. Everything sent stays on the server; changes not sent yet are never deleted.',
        })}
      </p>
      <Dialog
        open={confirmRemove !== null}
        title={
          confirmRemove === 0
            ? t(
                {
                  id: 'settings.removeTitle',
                  defaultMessage: 'Remove {username}’s data from this tablet?',
                },
                { username },
              )
            : t({
                id: 'settings.removeRefusedTitle',
                defaultMessage: 'Changes not sent: nothing removed',
              })
        }
        onClose={() => setConfirmRemove(null)}
      >
        {confirmRemove === 0 ? (
          <>
            <p>
              {t({
                id: 'settings.removeBody',
                defaultMessage:
                  'Your sites, collections, pools, tests and kept reports are deleted from this tablet, and you are signed out. Everything is on the server: signing in again here downloads it again.',
              })}
            </p>
            <div className="row wrap">
              <button type="button" className="button" onClick={() => setConfirmRemove(null)}>
                {t({ id: 'settings.keepIt', defaultMessage: 'Keep it' })}
              </button>
              <button
                type="button"
                className="button button-danger"
                onClick={() => {
                  setConfirmRemove(null);
                  onSignOut({ removeData: true });
                }}
              >
                {t({ id: 'settings.removeAndSignOut', defaultMessage: 'Remove and sign out' })}
              </button>
            </div>
          </>
        ) : (
          <>
            <p>
              {t(
                {
                  id: 'settings.removeRefusedBody',
                  defaultMessage:
                    '{n, plural, one {# change has} other {# changes have}} not been sent yet, and exist only on this tablet: nothing is removed. Send them first (Sync, or fix what needs your attention), then remove this tablet’s data.',
                },
                { n: confirmRemove ?? 0 },
              )}
            </p>
            <div className="row wrap">
              <button type="button" className="button" onClick={() => setConfirmRemove(null)}>
                {t({ id: 'settings.close', defaultMessage: 'Close' })}
              </button>
            </div>
          </>
        )}
      </Dialog>
      <Dialog
        open={confirmSignOut !== null}
        title={t({ id: 'settings.signOutTitle', defaultMessage: 'Sign out with unsent changes?' })}
        onClose={() => setConfirmSignOut(null)}
      >
        <p>
          {t(
            {
              id: 'settings.signOutBody',
              defaultMessage:
                '{n, plural, one {# change has} other {# changes have}} not been sent yet. It stays on this tablet, kept for {username} only, and is sent the next time {username} signs in here. Nobody else signing in on this tablet sees it.',
            },
            { n: unsent, username },
          )}
        </p>
        <div className="row">
          <button type="button" className="button" onClick={() => setConfirmSignOut(null)}>
            {t({ id: 'settings.staySignedIn', defaultMessage: 'Stay signed in' })}
          </button>
          <button
            type="button"
            className="button button-danger"
            onClick={() => {
              setConfirmSignOut(null);
              onSignOut();
            }}
          >
            {t({ id: 'settings.signOutAnyway', defaultMessage: 'Sign out anyway' })}
          </button>
        </div>
      </Dialog>
      <p className="muted">
        {t({
          id: 'settings.unsentNote',
          defaultMessage:
            'Records not yet sent stay on this tablet and are sent the next time you sign in.',
        })}
      </p>
    </section>
  );
}
