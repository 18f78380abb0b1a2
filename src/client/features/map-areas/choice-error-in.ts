import type { IntlShape } from 'react-intl';

/**
 * area-choice's problems (written in English, its tests read them so) in the person's language,
 * matched by their wording; the numbers inside are kept as written. Another text passes through.
 */
export function choiceErrorIn(intl: IntlShape, text: string | null | undefined): string | null {
  if (!text) return null;
  const t = intl.formatMessage;
  let m = /^Enter the (?<edge>north|south|west|east) edge in decimal degrees$/.exec(text);
  if (m?.groups)
    return t(
      {
        id: 'mapAreas.edgeNumber',
        defaultMessage:
          'Enter the {edge, select, north {north} south {south} west {west} other {east}} edge in decimal degrees',
      },
      { edge: m.groups.edge },
    );
  m = /^The (?<edge>north|south|west|east) edge must be between -(?<limit>\S+) and \S+$/.exec(text);
  if (m?.groups)
    return t(
      {
        id: 'mapAreas.edgeRange',
        defaultMessage:
          'The {edge, select, north {north} south {south} west {west} other {east}} edge must be between -{limit} and {limit}',
      },
      { edge: m.groups.edge, limit: m.groups.limit },
    );
  if (text === 'The south edge must be below the north edge')
    return t({
      id: 'mapAreas.southBelowNorth',
      defaultMessage: 'The south edge must be below the north edge',
    });
  if (text === 'The east edge must be east of the west edge')
    return t({
      id: 'mapAreas.eastOfWest',
      defaultMessage: 'The east edge must be east of the west edge',
    });
  if (text === '"From zoom" must not be above "To zoom"')
    return t({
      id: 'mapAreas.zoomOrder',
      defaultMessage: '"From zoom" must not be above "To zoom"',
    });
  m = /^That is (?<tiles>[\d,]+) tiles; one area holds at most (?<max>[\d,]+)\./.exec(text);
  if (m?.groups)
    return t(
      {
        id: 'mapAreas.tooManyTiles',
        defaultMessage:
          'That is {tiles} tiles; one area holds at most {max}. Choose a smaller area or a lower "To zoom".',
      },
      { tiles: m.groups.tiles, max: m.groups.max },
    );
  return text;
}
