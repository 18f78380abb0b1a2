import { MAX_PAGE_SIZE, type Entity } from '#shared';
import type { SyncStatus } from '../../sync';

const LIST_NAME: Record<Entity, string> = {
  site: 'sites',
  collection: 'collections',
  pool: 'pools',
  poolTest: 'pool tests',
};

const count = (n: number) => n.toLocaleString('en-US');

/**
 * "Downloading sites 8,000 of 20,000" with a bar, while a pull brings a list longer than one
 * request (a first pull of a district's sites takes a while and must not look stuck). Shorter
 * pulls, done in a blink, show nothing: a flash of text would only distract.
 */
export function PullProgress({ pulling }: { pulling: SyncStatus['pulling'] }) {
  if (!pulling) return null;
  const { entity, received, total } = pulling;
  if ((total ?? received) <= MAX_PAGE_SIZE) return null;
  const text =
    total === null
      ? `Downloading ${LIST_NAME[entity]}: ${count(received)}`
      : `Downloading ${LIST_NAME[entity]} ${count(Math.min(received, total))} of ${count(total)}`;
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
