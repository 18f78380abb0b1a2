/**
 * One export at a time per session (issue 36 N8): an export reads the agency's whole history from
 * the upstream, so eight at once from one person saturated both cores for minutes. Held in this
 * process (a session's downloads go to one BFF in practice; with several processes each allows
 * one, which still bounds the load by the number of processes).
 */
export class ExportSlots {
  private readonly running = new Map<string, symbol>();

  /**
   * Takes the session's slot: the function that gives it back (once; a later call does nothing,
   * so a late 'close' never frees a slot a newer export took), or null when one is running.
   */
  take(sessionId: string): (() => void) | null {
    if (this.running.has(sessionId)) return null;
    const hold = Symbol(sessionId);
    this.running.set(sessionId, hold);
    return () => {
      if (this.running.get(sessionId) === hold) this.running.delete(sessionId);
    };
  }
}
