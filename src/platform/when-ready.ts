/**
 * `then(value)` at once when the value is already there, else when its promise resolves. Lets a request whose
 * data is all in memory be answered in the turn it arrived, without a promise per step.
 */
export function whenReady<T, R>(value: T | Promise<T>, then: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(then) : then(value);
}
