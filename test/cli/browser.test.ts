import { describe, expect, it } from 'vitest';
import { launcherFor } from '../../src/cli/open/browser.ts';

describe('which program opens the browser', () => {
  const url = 'http://127.0.0.1:1/t/?url=http%3A%2F%2F127.0.0.1%3A1%2Ft%2Flogs%2Fa%26b.jsonl#cs=5';
  it('is the platform opener, with the URL as one argument (no shell parses it)', () => {
    expect(launcherFor(url, 'linux', {})).toEqual({ command: 'xdg-open', args: [url] });
    expect(launcherFor(url, 'darwin', {})).toEqual({ command: 'open', args: [url] });
    expect(launcherFor(url, 'win32', {})).toEqual({ command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] });
  });
  it('is $BROWSER when it is set', () => {
    expect(launcherFor(url, 'linux', { BROWSER: '/opt/firefox/firefox' })).toEqual({ command: '/opt/firefox/firefox', args: [url] });
    expect(launcherFor(url, 'darwin', { BROWSER: '' })).toEqual({ command: 'open', args: [url] });
  });
});
