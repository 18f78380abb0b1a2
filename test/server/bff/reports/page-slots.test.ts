import { describe, expect, it } from 'vitest';
import { PageSlots } from '../../../../src/server/bff/reports/page-slots';

/** A promise and its resolver: a page whose answer the test gives when it chooses. */
function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

const running = () => new AbortController().signal;

describe('PageSlots', () => {
  it('runs at most `size` at once, the others in the order they asked', async () => {
    const slots = new PageSlots(2);
    const order: string[] = [];
    const pages = ['a', 'b', 'c', 'd'].map((name) => ({ name, answer: deferred() }));
    const done = pages.map(({ name, answer }) =>
      slots.run(running(), async () => {
        order.push(name);
        await answer.promise;
      }),
    );
    await Promise.resolve();
    expect(order).toEqual(['a', 'b']);
    expect(slots.busy).toBe(2);
    pages[1].answer.resolve();
    await done[1];
    expect(order).toEqual(['a', 'b', 'c']);
    pages[0].answer.resolve();
    pages[2].answer.resolve();
    pages[3].answer.resolve();
    await Promise.all(done);
    expect(order).toEqual(['a', 'b', 'c', 'd']);
    expect(slots.busy).toBe(0);
  });

  it('gives the slot back when the work fails', async () => {
    const slots = new PageSlots(1);
    await expect(slots.run(running(), () => Promise.reject(new Error('reset')))).rejects.toThrow(
      'reset',
    );
    expect(slots.busy).toBe(0);
    await expect(slots.run(running(), () => Promise.resolve(7))).resolves.toBe(7);
  });

  it('a waiter whose read was abandoned leaves the queue and never runs', async () => {
    const slots = new PageSlots(1);
    const first = deferred();
    const holding = slots.run(running(), () => first.promise);
    const left = new AbortController();
    let ran = false;
    const abandoned = slots.run(left.signal, async () => {
      ran = true;
    });
    const after = slots.run(running(), () => Promise.resolve('next'));
    left.abort(new Error('every waiter has gone'));
    await expect(abandoned).rejects.toThrow('every waiter has gone');
    first.resolve();
    await holding;
    await expect(after).resolves.toBe('next');
    expect(ran).toBe(false);
    expect(slots.busy).toBe(0);
  });

  it('refuses work already abandoned without taking a slot', async () => {
    const slots = new PageSlots(1);
    const left = new AbortController();
    left.abort(new Error('gone'));
    await expect(slots.run(left.signal, () => Promise.resolve(1))).rejects.toThrow('gone');
    expect(slots.busy).toBe(0);
  });
});
