import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { useI18n } from '../../lib/i18n';
import { Dialog } from '../dialog';
import { anyFormDirty } from './dirty-forms';
import { discardOpenDrafts, keepOpenDrafts } from './open-drafts';

/** The question's English title (screens not yet converted, and tests, name it by this). */
export const LEAVE_QUESTION = 'Discard the changes you typed?';

type Pending = { kind: 'link'; href: string } | { kind: 'history' };

const here = () => `${location.pathname}${location.search}${location.hash}`;

/**
 * Asks before a dirty form is left: in-app links (the bottom nav sits right under the Save bar),
 * browser back/forward and Cancel (which goes back in history). Closing or reloading the tab gets
 * the browser's own warning. "Keep editing" is the default answer: a stray tap never loses typing.
 * Programmatic navigation (after a save) is not guarded: the form has just been saved.
 */
export function LeaveGuard() {
  const intl = useI18n();
  const [, navigate] = useLocation();
  const [pending, setPending] = useState<Pending | null>(null);
  // The address shown before a back/forward press, to put it back while the question is open.
  const current = useRef(here());
  // Set while the guard itself replays an answered back/forward press.
  const replaying = useRef(false);

  useEffect(() => {
    const remember = () => {
      current.current = here();
    };
    const onClick = (e: MouseEvent) => {
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey)
        return;
      const a = e.target instanceof Element ? e.target.closest('a[href]') : null;
      if (!(a instanceof HTMLAnchorElement) || (a.target && a.target !== '_self')) return;
      const url = new URL(a.href, location.href);
      if (url.origin !== location.origin || !anyFormDirty()) return;
      const href = `${url.pathname}${url.search}${url.hash}`;
      if (href === here()) return;
      // Capture phase on window: runs before React's handlers, so the router never sees the tap.
      e.preventDefault();
      e.stopPropagation();
      setPending({ kind: 'link', href });
    };
    const onPopState = (e: PopStateEvent) => {
      if (replaying.current) {
        replaying.current = false;
        remember();
        return;
      }
      if (!anyFormDirty()) {
        remember();
        return;
      }
      // The browser has already moved: stop the router from following and put the form's address
      // back on top, so answering "Discard" can simply go back once more.
      e.stopImmediatePropagation();
      history.pushState(history.state, '', current.current);
      setPending({ kind: 'history' });
    };
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (!anyFormDirty()) return;
      e.preventDefault();
      // Older browsers show the warning only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('click', onClick, true);
    window.addEventListener('popstate', onPopState, true);
    window.addEventListener('pushState', remember);
    window.addEventListener('replaceState', remember);
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => {
      window.removeEventListener('click', onClick, true);
      window.removeEventListener('popstate', onPopState, true);
      window.removeEventListener('pushState', remember);
      window.removeEventListener('replaceState', remember);
      window.removeEventListener('beforeunload', onBeforeUnload);
    };
  }, []);

  // Staying keeps the typing, and its draft (Cancel removed it before asking).
  const stay = () => {
    setPending(null);
    keepOpenDrafts();
  };

  const discard = () => {
    const p = pending;
    setPending(null);
    if (!p) return;
    // "Discard changes" means the typing is not wanted: it is not restored next time either.
    discardOpenDrafts();
    if (p.kind === 'link') navigate(p.href);
    else {
      replaying.current = true;
      history.back();
    }
  };

  return (
    <Dialog
      open={pending !== null}
      title={intl.formatMessage({
        id: 'leave.question',
        defaultMessage: 'Discard the changes you typed?',
      })}
      onClose={stay}
    >
      <p>
        {intl.formatMessage({
          id: 'leave.notSaved',
          defaultMessage: 'What you typed on this screen has not been saved.',
        })}
      </p>
      <div className="row wrap">
        <button type="button" className="button button-primary" autoFocus onClick={stay}>
          {intl.formatMessage({ id: 'leave.keepEditing', defaultMessage: 'Keep editing' })}
        </button>
        <button type="button" className="button button-danger" onClick={discard}>
          {intl.formatMessage({ id: 'leave.discard', defaultMessage: 'Discard changes' })}
        </button>
      </div>
    </Dialog>
  );
}
