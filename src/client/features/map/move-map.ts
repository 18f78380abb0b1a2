/**
 * Runs a change of the map's view that React asked for, in an effect (Follow me's re-centre, the
 * first framing of the sites). Leaflet runs the whole change at once, every layer's handlers in
 * it (the sites' dot tiles are made there): an exception in any of them, thrown into React's effect,
 * would reach the map's error boundary, which takes the map and Where am I off the screen, and
 * Follow me's state with them, for one frame that failed to draw. It is reported as an exception
 * in a pan by hand is (a page error, in the console), and the screen stays.
 */
export function moveMap(move: () => void): void {
  try {
    move();
  } catch (error) {
    reportError(error);
  }
}
