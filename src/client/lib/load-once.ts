/**
 * `load` run at most once at a time, its promise kept for every later call: a chunk the app
 * imports ahead (as a form is sent) and again when the screen renders is fetched once. A load that
 * failed is forgotten, so the next call tries afresh (a tablet that lost its signal a moment is
 * not left with a failure for good); the caller of that failed load still sees it fail.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | null = null;
  return () => {
    if (loading) return loading;
    const started = load();
    loading = started;
    // Handled here, so a load nobody awaited does not surface as an unhandled rejection.
    started.catch(() => {
      if (loading === started) loading = null;
    });
    return started;
  };
}
