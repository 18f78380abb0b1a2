/**
 * Resolves in a new task, so the page can paint and handle input between two slices of a long
 * piece of work. A MessageChannel message, not setTimeout(0): timers are clamped to 4 ms after a
 * few nested calls and to a second or more in a hidden tab, where a drain or a pull still runs.
 */
export function nextTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined')
    return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
