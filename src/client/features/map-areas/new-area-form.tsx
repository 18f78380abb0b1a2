import { useEffect, useMemo, useState, type FormEvent } from 'react';
import type { IntlShape } from 'react-intl';
import { useI18n } from '../../lib/i18n';
import { Field } from '../../ui/form/field';
import { checkTiles, parseRectangle, type AreaChoice, type ChoiceErrors } from './area-choice';
import { choiceErrorIn } from './choice-error-in';
import { bytesIn } from './format-bytes';
import { sampleTileSizes } from './sample-tile-sizes';
import type { SavedArea } from './saved-areas';
import type { SitesExtent } from './sites-extent';
import type { StorageLeft } from './storage-left';
import { estimateBytes, fitZoom, MAX_ZOOM, type Bbox } from './tile-math';
import { isRetina } from './tile-url';
import { RectangleMap } from './rectangle-map';

const ZOOMS = Array.from({ length: MAX_ZOOM + 1 }, (_, z) => z);
/** Degrees to 5 decimals: about a metre, plenty for an area's edge. */
const edgeText = (v: number) => String(Number(v.toFixed(5)));

/** Zoom 10 shows a district, 16 its streets and house numbers: enough to find a trap. */
const DEFAULT_ZOOMS = { minZoom: 10, maxZoom: 16 };
/**
 * The smallest frame Sites fits the sites in on a tablet: its 360-pixel-high map in portrait, less
 * the 24-pixel padding of its fitBounds on each side. The area around the sites starts at the zoom
 * that frames them there, so the first map a technician opens offline is among the saved tiles.
 */
const SITES_MAP_AT_LEAST = { width: 752 - 48, height: 360 - 48 };

/** "From zoom" for the sites' area: the district zoom, or lower when Sites opens lower. */
function sitesMinZoom(extent: SitesExtent): number {
  const { width, height } = SITES_MAP_AT_LEAST;
  return Math.min(DEFAULT_ZOOMS.minZoom, fitZoom(extent.bbox, width, height, 14));
}

function describeZoom(intl: IntlShape, z: number): string {
  const scale = z <= 8 ? 'region' : z <= 11 ? 'district' : z <= 14 ? 'town' : 'streets';
  return intl.formatMessage(
    {
      id: 'mapAreas.zoom',
      defaultMessage:
        '{z} — {scale, select, region {region} district {district} town {town} other {streets}}',
    },
    { z, scale },
  );
}

function useSampleSizes(tileUrl: string, bbox: Bbox | null, minZoom: number, maxZoom: number) {
  const [sizes, setSizes] = useState<{ key: string; sizes: number[] } | null>(null);
  const key = bbox ? JSON.stringify([tileUrl, bbox, minZoom, maxZoom]) : '';
  useEffect(() => {
    if (!bbox) return;
    const abort = new AbortController();
    // Waits for typing to settle before asking the tile server.
    const timer = setTimeout(() => {
      void sampleTileSizes(tileUrl, bbox, minZoom, maxZoom, isRetina(), abort.signal).then(
        (s) => !abort.signal.aborted && setSizes({ key, sizes: s }),
      );
    }, 400);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
    // key stands for bbox, minZoom and maxZoom.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return sizes?.key === key ? sizes.sizes : null;
}

type Props = {
  tileUrl: string;
  /** undefined while the sites are read; null when no site has a location. */
  extent: SitesExtent | null | undefined;
  storage: StorageLeft | undefined;
  /** A download is under way: a second waits. */
  busy: boolean;
  onStart: (area: SavedArea) => void;
};

/** Choose an area and zooms, see the tiles, their likely size and the storage left, download. */
export function NewAreaForm({ tileUrl, extent, storage, busy, onStart }: Props) {
  const intl = useI18n();
  const t = intl.formatMessage;
  const [choice, setChoice] = useState<AreaChoice>({
    kind: 'sites',
    rectangle: { north: '', south: '', west: '', east: '' },
    ...DEFAULT_ZOOMS,
  });
  // Until the technician picks "From zoom", it follows the sites' extent as it is read.
  const [minZoomPicked, setMinZoomPicked] = useState(false);
  useEffect(() => {
    if (minZoomPicked || !extent) return;
    setChoice((c) => ({ ...c, minZoom: sitesMinZoom(extent) }));
  }, [extent, minZoomPicked]);
  const [name, setName] = useState('');
  const [showErrors, setShowErrors] = useState(false);
  const kind = choice.kind === 'sites' && extent === null ? 'rectangle' : choice.kind;

  const { bbox, errors, tiles } = useMemo(() => {
    const typed =
      kind === 'sites'
        ? { bbox: extent?.bbox ?? null, errors: {} as ChoiceErrors }
        : parseRectangle(choice.rectangle);
    if (!typed.bbox) return { bbox: null, errors: typed.errors, tiles: 0 };
    const checked = checkTiles(typed.bbox, choice.minZoom, choice.maxZoom);
    return { bbox: typed.bbox, errors: checked.errors, tiles: checked.tiles };
  }, [kind, extent, choice]);
  const tooMany = Boolean(errors.tiles || errors.zoom);
  const samples = useSampleSizes(tileUrl, tooMany ? null : bbox, choice.minZoom, choice.maxZoom);
  const estimate = samples && samples.length > 0 ? estimateBytes(samples, tiles) : null;
  const tooBig = estimate !== null && storage ? estimate > storage.left : false;

  const defaultName = t(
    {
      id: 'mapAreas.defaultName',
      defaultMessage: '{kind, select, sites {Agency sites} other {Rectangle}}, zoom {min}–{max}',
    },
    { kind, min: choice.minZoom, max: choice.maxZoom },
  );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setShowErrors(true);
    if (!bbox || Object.keys(errors).length > 0 || tooBig || busy) return;
    onStart({
      id: crypto.randomUUID(),
      name: name.trim() || defaultName,
      bbox,
      minZoom: choice.minZoom,
      maxZoom: choice.maxZoom,
      tileUrl,
      retina: isRetina(),
      tiles,
      bytes: 0,
      savedAt: new Date().toISOString(),
      complete: false,
    });
  };

  const edge = (key: keyof AreaChoice['rectangle'], label: string) => (
    <Field label={label} error={showErrors ? choiceErrorIn(intl, errors[key]) : null}>
      <input
        inputMode="decimal"
        value={choice.rectangle[key]}
        onChange={(e) =>
          setChoice((c) => ({ ...c, rectangle: { ...c.rectangle, [key]: e.target.value } }))
        }
      />
    </Field>
  );

  const zoomField = (key: 'minZoom' | 'maxZoom', label: string, error?: string) => (
    <Field label={label} error={choiceErrorIn(intl, error)}>
      <select
        value={choice[key]}
        onChange={(e) => {
          if (key === 'minZoom') setMinZoomPicked(true);
          setChoice((c) => ({ ...c, [key]: Number(e.target.value) }));
        }}
      >
        {ZOOMS.map((z) => (
          <option key={z} value={z}>
            {describeZoom(intl, z)}
          </option>
        ))}
      </select>
    </Field>
  );

  return (
    <form
      className="form area-form"
      aria-label={t({ id: 'mapAreas.download', defaultMessage: 'Download an area' })}
      noValidate
      onSubmit={submit}
    >
      <fieldset className="checks">
        <legend>{t({ id: 'mapAreas.area', defaultMessage: 'Area' })}</legend>
        <label className="check">
          <input
            type="radio"
            name="area-kind"
            checked={kind === 'sites'}
            disabled={extent === null}
            onChange={() => setChoice((c) => ({ ...c, kind: 'sites' }))}
          />
          <span>
            {t({ id: 'mapAreas.aroundSites', defaultMessage: 'Around the agency’s sites' })}
            <span className="field-hint">
              {' '}
              {extent === undefined
                ? t({ id: 'mapAreas.readingSites', defaultMessage: '(reading sites…)' })
                : extent === null
                  ? t({
                      id: 'mapAreas.noPlacedSite',
                      defaultMessage: '(no site on this tablet has a location)',
                    })
                  : t(
                      {
                        id: 'mapAreas.siteCount',
                        defaultMessage: '({sites, plural, one {# site} other {# sites}})',
                      },
                      { sites: extent.sites },
                    )}
            </span>
          </span>
        </label>
        <label className="check">
          <input
            type="radio"
            name="area-kind"
            checked={kind === 'rectangle'}
            onChange={() => setChoice((c) => ({ ...c, kind: 'rectangle' }))}
          />
          <span>
            {t({
              id: 'mapAreas.rectangle',
              defaultMessage: 'A rectangle I draw on the map or enter',
            })}
          </span>
        </label>
      </fieldset>
      {kind === 'rectangle' ? (
        <RectangleMap
          tileUrl={tileUrl}
          bbox={bbox}
          home={extent?.bbox ?? null}
          onChange={(drawn) =>
            setChoice((c) => ({
              ...c,
              rectangle: {
                north: edgeText(drawn.north),
                south: edgeText(drawn.south),
                west: edgeText(drawn.west),
                east: edgeText(drawn.east),
              },
            }))
          }
        />
      ) : null}
      {kind === 'rectangle' ? (
        <div className="form-grid area-edges">
          {edge('north', t({ id: 'mapAreas.north', defaultMessage: 'North (latitude)' }))}
          {edge('south', t({ id: 'mapAreas.south', defaultMessage: 'South (latitude)' }))}
          {edge('west', t({ id: 'mapAreas.west', defaultMessage: 'West (longitude)' }))}
          {edge('east', t({ id: 'mapAreas.east', defaultMessage: 'East (longitude)' }))}
        </div>
      ) : null}
      <div className="form-grid">
        {zoomField(
          'minZoom',
          t({ id: 'mapAreas.fromZoom', defaultMessage: 'From zoom' }),
          errors.zoom,
        )}
        {zoomField('maxZoom', t({ id: 'mapAreas.toZoom', defaultMessage: 'To zoom' }))}
        <Field label={t({ id: 'mapAreas.name', defaultMessage: 'Name' })}>
          <input value={name} placeholder={defaultName} onChange={(e) => setName(e.target.value)} />
        </Field>
      </div>
      <dl className="facts area-facts">
        <dt>{t({ id: 'mapAreas.tiles', defaultMessage: 'Tiles' })}</dt>
        <dd data-testid="area-tiles">{bbox ? intl.formatNumber(tiles) : '—'}</dd>
        <dt>{t({ id: 'mapAreas.estimate', defaultMessage: 'Estimated size' })}</dt>
        <dd data-testid="area-estimate">
          {!bbox || tooMany
            ? '—'
            : samples === null
              ? t({ id: 'mapAreas.measuring', defaultMessage: 'measuring a few tiles…' })
              : estimate === null
                ? t({
                    id: 'mapAreas.estimateUnknown',
                    defaultMessage: 'unknown (no sample tile could be read: is the tablet online?)',
                  })
                : t(
                    {
                      id: 'mapAreas.estimateAbout',
                      defaultMessage:
                        'about {size} ({samples, plural, one {# sample tile} other {# sample tiles}} × {tiles, number})',
                    },
                    { size: bytesIn(intl, estimate), samples: samples.length, tiles },
                  )}
        </dd>
        <dt>{t({ id: 'mapAreas.storageLeft', defaultMessage: 'Storage left' })}</dt>
        <dd data-testid="storage-left">
          {storage === undefined
            ? t({ id: 'settings.checking', defaultMessage: 'checking…' })
            : storage === null
              ? t({ id: 'settings.unknown', defaultMessage: 'unknown' })
              : t(
                  { id: 'mapAreas.storageOf', defaultMessage: '{left} of {quota}' },
                  { left: bytesIn(intl, storage.left), quota: bytesIn(intl, storage.quota) },
                )}
        </dd>
      </dl>
      {errors.tiles ? (
        <p className="field-error" role="alert">
          {choiceErrorIn(intl, errors.tiles)}
        </p>
      ) : null}
      {tooBig ? (
        <p className="field-error" role="alert">
          {t({
            id: 'mapAreas.tooBig',
            defaultMessage:
              'This area needs more than the storage left on this tablet: choose a smaller area or fewer zoom levels, or delete a saved area.',
          })}
        </p>
      ) : null}
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={busy || tooMany || tooBig}
        >
          {t({ id: 'mapAreas.downloadArea', defaultMessage: 'Download area' })}
        </button>
      </div>
    </form>
  );
}
