/**
 * The log's format and the start-up banner (issue 33): JSON off a terminal or with
 * LOG_FORMAT=json; short human lines on a terminal, where requests are logged only at debug.
 */
import { describe, expect, it } from 'vitest';
import {
  browserUrl,
  chooseLogFormat,
  formatLogLine,
  startupBanner,
} from '../../../server/lib/log-output.js';

describe('log format choice', () => {
  it('is text on a terminal and JSON anywhere else, unless LOG_FORMAT says', () => {
    expect(chooseLogFormat({ configured: null, isTerminal: true })).toBe('text');
    expect(chooseLogFormat({ configured: null, isTerminal: false })).toBe('json');
    expect(chooseLogFormat({ configured: 'json', isTerminal: true })).toBe('json');
    expect(chooseLogFormat({ configured: 'text', isTerminal: false })).toBe('text');
  });

  it('turns a JSON line into one human line with its level, message and fields', () => {
    const line = formatLogLine(
      JSON.stringify({ level: 40, time: 0, pid: 1, hostname: 'h', msg: 'careful', task: 'x' }),
    );
    expect(line).toMatch(/^\d\d:\d\d:\d\d WARN {2}careful task=x\n$/);
    expect(line).not.toContain('hostname');
  });
});

describe('start-up banner', () => {
  it('names the URL, the password file and the way to the first admin key', () => {
    const banner = startupBanner({
      address: 'http://0.0.0.0:5000',
      dataDir: '/srv/data',
      isPasswordConfigured: false,
    });
    expect(banner).toContain('http://127.0.0.1:5000');
    expect(banner).toContain('/srv/data/admin-password');
    expect(banner).toContain('ADMIN');
    expect(banner).toContain('/admin');
  });

  it('says the password is the operator’s own when ADMIN_PASSWORD is set', () => {
    const banner = startupBanner({
      address: 'http://127.0.0.1:5000',
      dataDir: '/srv/data',
      isPasswordConfigured: true,
    });
    expect(banner).toContain('set by ADMIN_PASSWORD');
    expect(banner).not.toContain('admin-password');
  });

  it('gives a browser address for wildcard hosts only', () => {
    expect(browserUrl('http://[::]:80')).toBe('http://127.0.0.1:80');
    expect(browserUrl('https://chat.example:443')).toBe('https://chat.example:443');
  });
});
