/**
 * A fixed number of slots, taken first come first served: at most `size` holders at once, the
 * rest queued in the order they asked. A waiter whose signal aborts leaves the queue (it never
 * takes a slot afterwards), so an abandoned read holds nothing.
 */
export class PageSlots {
  private free: number;
  private readonly queue: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`PageSlots(${size})`);
    this.free = size;
  }

  /** Runs `work` in a slot, giving the slot back however it ends. */
  async run<T>(stop: AbortSignal, work: () => Promise<T>): Promise<T> {
    await this.take(stop);
    try {
      return await work();
    } finally {
      this.give();
    }
  }

  /** Slots taken now (what a test reads). */
  get busy(): number {
    return this.size - this.free;
  }

  private take(stop: AbortSignal): Promise<void> {
    stop.throwIfAborted();
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const granted = () => {
        stop.removeEventListener('abort', left);
        resolve();
      };
      const left = () => {
        const at = this.queue.indexOf(granted);
        if (at >= 0) this.queue.splice(at, 1);
        reject(stop.reason);
      };
      stop.addEventListener('abort', left, { once: true });
      this.queue.push(granted);
    });
  }

  /** The slot goes to the longest waiter, or back to the free count. */
  private give(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.free += 1;
  }
}
