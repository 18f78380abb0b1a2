import { useCallback, useEffect, useRef, useState } from 'react';
import type { IntlShape } from 'react-intl';
import { useLocation } from 'wouter';
import { useDb } from '../../db/db-context';
import { loadIdentity } from '../../lib/identity';
import { useI18n } from '../../lib/i18n';
import { Banner } from '../../ui/banner';
import { findScanned, type ScanOutcome } from './find-scanned';
import { codeReader, drawScaled, type CodeReader } from './read-codes';
import './scan.css';

/** A camera frame is read this often: enough to feel instant, little enough for a tablet. */
const FRAME_EVERY_MS = 250;

type Camera = 'starting' | 'on' | 'refused' | 'none';

function sayOutcome(intl: IntlShape, outcome: Exclude<ScanOutcome, { kind: 'open' }>): string {
  const t = intl.formatMessage;
  switch (outcome.kind) {
    case 'other-agency':
      return t({
        id: 'scan.otherAgency',
        defaultMessage: 'This label belongs to another agency. Scan one of your agency’s labels.',
      });
    case 'pool-missing':
      return t(
        {
          id: 'scan.poolMissing',
          defaultMessage:
            'Pool {number} is not on this tablet yet. Sync when you have signal, then scan again.',
        },
        { number: outcome.poolNumber },
      );
    case 'pool-deleted':
      return t(
        {
          id: 'scan.poolDeleted',
          defaultMessage: 'Pool {number} was deleted: no result can be entered for it.',
        },
        { number: outcome.poolNumber },
      );
    case 'site-missing':
      return t({
        id: 'scan.siteMissing',
        defaultMessage:
          'No active site on this tablet has this tag. Check the site list, or sync and scan again.',
      });
    case 'unknown':
      return t(
        {
          id: 'scan.unknown',
          defaultMessage: 'Not a Trapline label or a known trap tag: “{text}”. Still scanning.',
        },
        { text: outcome.text.length > 60 ? `${outcome.text.slice(0, 60)}…` : outcome.text },
      );
  }
}

/**
 * Scan: the tablet's back camera reads a pool label (→ the pool's test result entry) or a site's
 * trap tag (→ a new collection there). Looked up on the tablet, so it works offline. A code that
 * leads nowhere is said in words and the camera keeps reading; without a camera (refused, none,
 * a desktop) a photo of the label does the same.
 */
export function ScanScreen() {
  const intl = useI18n();
  const t = intl.formatMessage;
  const db = useDb();
  const [, navigate] = useLocation();
  const video = useRef<HTMLVideoElement>(null);
  const [camera, setCamera] = useState<Camera>('starting');
  const [message, setMessage] = useState<{ tone: 'info' | 'warn' | 'error'; text: string } | null>(
    null,
  );
  const agencyId = loadIdentity()?.agency.id ?? null;
  /** The last code that led nowhere: said once, not again every frame it stays in view. */
  const lastMiss = useRef<string | null>(null);

  const follow = useCallback(
    async (texts: string[]): Promise<boolean> => {
      if (agencyId === null) return false;
      for (const text of texts) {
        const outcome = await findScanned(db, text, agencyId);
        if (outcome.kind === 'open') {
          navigate(outcome.path);
          return true;
        }
        if (lastMiss.current !== text) {
          lastMiss.current = text;
          setMessage({ tone: 'warn', text: sayOutcome(intl, outcome) });
        }
      }
      return false;
    },
    [agencyId, db, intl, navigate],
  );

  const loadReader = useCallback(async (): Promise<CodeReader | null> => {
    try {
      return await codeReader();
    } catch {
      setMessage({
        tone: 'error',
        text: intl.formatMessage({
          id: 'scan.readerFailed',
          defaultMessage:
            'The scanner could not start on this tablet. Reload the app once with signal, then try again.',
        }),
      });
      return null;
    }
  }, [intl]);

  // The camera: started on opening, stopped on leaving (the light goes off).
  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const canvas = document.createElement('canvas');
    const start = async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setCamera('none');
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 } },
          audio: false,
        });
      } catch (error) {
        if (!stopped)
          setCamera(
            error instanceof DOMException && error.name === 'NotAllowedError' ? 'refused' : 'none',
          );
        return;
      }
      if (stopped) {
        stream.getTracks().forEach((track) => track.stop());
        return;
      }
      const el = video.current;
      if (!el) return;
      el.srcObject = stream;
      await el.play().catch(() => undefined);
      setCamera('on');
      const read = await loadReader();
      if (!read) return;
      const tick = async () => {
        if (stopped) return;
        if (el.readyState >= el.HAVE_CURRENT_DATA && el.videoWidth > 0) {
          drawScaled(canvas, el, el.videoWidth, el.videoHeight);
          const texts = await read(canvas).catch(() => [] as string[]);
          if (stopped) return;
          if (texts.length > 0 && (await follow(texts))) return;
        }
        timer = setTimeout(() => void tick(), FRAME_EVERY_MS);
      };
      void tick();
    };
    void start();
    return () => {
      stopped = true;
      clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [follow, loadReader]);

  const scanPhoto = async (file: File | undefined) => {
    if (!file) return;
    setMessage({
      tone: 'info',
      text: t({ id: 'scan.readingPhoto', defaultMessage: 'Reading the photo…' }),
    });
    const read = await loadReader();
    if (!read) return;
    let texts: string[];
    try {
      const bitmap = await createImageBitmap(file);
      const canvas = document.createElement('canvas');
      drawScaled(canvas, bitmap, bitmap.width, bitmap.height, 2048);
      bitmap.close();
      texts = await read(canvas);
    } catch {
      texts = [];
    }
    lastMiss.current = null;
    if (texts.length === 0) {
      setMessage({
        tone: 'warn',
        text: t({
          id: 'scan.nothingInPhoto',
          defaultMessage:
            'No code found in the photo. Take it closer, with the whole label in the picture.',
        }),
      });
      return;
    }
    await follow(texts);
  };

  return (
    <section className="screen scan-screen">
      <h1>{t({ id: 'scan.title', defaultMessage: 'Scan a label or trap tag' })}</h1>
      <p className="muted">
        {t({
          id: 'scan.how',
          defaultMessage:
            'Point the camera at a pool label to enter its test result, or at a trap tag to start a collection at that site.',
        })}
      </p>
      <div className="scan-view">
        <video
          ref={video}
          muted
          playsInline
          aria-label={t({ id: 'scan.camera', defaultMessage: 'Camera' })}
          hidden={camera !== 'on'}
        />
        {camera === 'starting' ? (
          <p role="status">{t({ id: 'scan.starting', defaultMessage: 'Starting the camera…' })}</p>
        ) : null}
        {camera === 'refused' ? (
          <Banner tone="warn">
            {t({
              id: 'scan.refused',
              defaultMessage:
                'The camera is not allowed for Trapline. Allow it in the browser’s site settings, or scan a photo of the label.',
            })}
          </Banner>
        ) : null}
        {camera === 'none' ? (
          <Banner tone="warn">
            {t({
              id: 'scan.noCamera',
              defaultMessage: 'No camera is available. Scan a photo of the label instead.',
            })}
          </Banner>
        ) : null}
      </div>
      <div aria-live="polite" className="scan-message">
        {message ? <Banner tone={message.tone}>{message.text}</Banner> : null}
      </div>
      <div className="row wrap">
        <label className="button button-big scan-photo">
          {t({ id: 'scan.photo', defaultMessage: 'Scan a photo' })}
          <input
            type="file"
            accept="image/*"
            className="scan-photo-input"
            onChange={(e) => {
              void scanPhoto(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </label>
      </div>
    </section>
  );
}
