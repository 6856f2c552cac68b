/**
 * Lets the event loop run whatever is waiting (other requests, timers) before going on.
 * Long server work awaits this between steps so one request never holds the process for
 * long; setImmediate in Node, a zero timeout where it does not exist (the browser).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
}
