/**
 * `new Date(ms).toISOString()` for the two times stamped on every message, without a Date per
 * call: the text up to the minute is kept and only seconds and milliseconds are formatted. In the
 * fan-out bench the two `toISOString` calls were a noticeable share of a message's JavaScript.
 */

const MINUTE_MS = 60_000;

/** Formats times that mostly fall in the same minute as the previous call. */
export class IsoTimeFormatter {
  private minute = Number.NaN;
  private prefix = '';

  /** Exactly what `new Date(ms).toISOString()` returns (throws as it does for invalid times). */
  format(ms: number): string {
    // Date drops the fraction towards zero; flooring below would not for negative times.
    const time = Math.trunc(ms);
    const minute = Math.floor(time / MINUTE_MS);
    if (minute !== this.minute) {
      const text = new Date(minute * MINUTE_MS).toISOString();
      // Years outside 0000–9999 are written with a sign and six digits; leave them to Date.
      if (text.length !== 24) return new Date(time).toISOString();
      this.minute = minute;
      this.prefix = text.slice(0, 17);
    }
    const inMinute = time - minute * MINUTE_MS;
    const seconds = Math.floor(inMinute / 1000);
    const millis = inMinute - seconds * 1000;
    return `${this.prefix}${seconds < 10 ? '0' : ''}${seconds}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
  }
}
