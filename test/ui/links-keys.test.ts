// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/generate/generate-log.ts';
import { fingerprint, FingerprintTap } from '../../src/core/log/fingerprint.ts';
import { useCursor } from '../../src/store/cursor.ts';
import { useLink } from '../../src/store/link.ts';
import { useSession } from '../../src/store/session.ts';
import { decodeHash, encodeHash, linkMatches, resolvePendingLink } from '../../src/store/url.ts';
import { useView } from '../../src/store/view.ts';
import { command, elementOwnsKey, useFlash } from '../../src/ui/commands.ts';
import { nextTarget, targetsOf } from '../../src/ui/nav-targets.ts';
import { navigate } from '../../src/core/replay/navigate.ts';
import { checkSeq } from '../../src/ui/palette/goto-target.ts';
import { loadText } from './harness.ts';

const textA = generateLog({ dialect: 'v0', seed: 4, turns: 5, compactEvery: 2 }).text;
const textB = generateLog({ dialect: 'v0', seed: 9, turns: 2 }).text;

describe('fingerprint', () => {
  it('depends on the first 64 KiB and the size, not on the rest', () => {
    const bytes = new TextEncoder().encode(textA);
    const tap = new FingerprintTap();
    for (let i = 0; i < bytes.length; i += 1000) tap.add(bytes.subarray(i, i + 1000));
    expect(tap.value()).toBe(fingerprint(bytes.subarray(0, 65536), bytes.length));
    const changedTail = bytes.slice();
    changedTail[bytes.length - 5] ^= 1;
    expect(fingerprint(changedTail.subarray(0, 65536), changedTail.length)).toBe(tap.value());
    const changedHead = bytes.slice();
    changedHead[100] ^= 1;
    expect(fingerprint(changedHead.subarray(0, 65536), changedHead.length)).not.toBe(tap.value());
    expect(fingerprint(bytes.subarray(0, 65536), bytes.length + 1)).not.toBe(tap.value());
    expect(tap.value()).toMatch(/^[0-9a-z]+-[0-9a-z]+$/);
  });
});

describe('links that know their log', () => {
  it('the hash carries the log name and fingerprint, never the content', () => {
    const hash = encodeHash({ log: 'a b.jsonl', fingerprint: '1x-abc', cursor: 17, tab: 'requests' });
    expect(decodeHash(`#${hash}`)).toMatchObject({ log: 'a b.jsonl', fingerprint: '1x-abc', cursor: 17, tab: 'requests' });
    expect(decodeHash('#log=x&h=<script>').fingerprint).toBeUndefined();
    expect(linkMatches({ log: 'a', fingerprint: 'f' }, { name: 'other name', fingerprint: 'f' })).toBe(true);
    expect(linkMatches({ log: 'a', fingerprint: 'f' }, { name: 'a', fingerprint: 'g' })).toBe(false);
    expect(linkMatches({ log: 'a' }, { name: 'a', fingerprint: 'g' })).toBe(true);
    expect(linkMatches({}, { name: 'a', fingerprint: 'g' })).toBe(true);
  });

  it('a pending link waits for its log, then applies its cursor and tab', async () => {
    await loadText(textB, 'b.jsonl');
    const b = useSession.getState().summary!;
    await loadText(textA, 'a.jsonl');
    const a = useSession.getState().summary!;
    expect(a.fingerprint).not.toBe(b.fingerprint);
    useView.getState().setSideTab('inspector');
    // A link made on A, opened while B is open: nothing is applied.
    const link = { log: 'a.jsonl', fingerprint: a.fingerprint, cursor: 17, tab: 'requests' as const };
    await useSession.getState().open({ kind: 'text', text: textB, name: 'b.jsonl' });
    useLink.getState().setPending(link);
    resolvePendingLink();
    expect(useLink.getState().pending).toBe(link);
    expect(useView.getState().sideTab).toBe('inspector');
    // A is opened (under another name): the view applies.
    await useSession.getState().open({ kind: 'text', text: textA, name: 'renamed.jsonl' });
    resolvePendingLink();
    expect(useLink.getState().pending).toBeNull();
    expect(useCursor.getState().index).toBe(17);
    expect(useView.getState().sideTab).toBe('requests');
  });
});

describe('steps with nowhere to go, and go-to', () => {
  beforeEach(async () => { await loadText(textA); });

  it('the step lists agree with the core rule, and a step with no target says so', () => {
    const s = useSession.getState().summary!;
    for (const kind of ['surface', 'replace', 'request', 'step', 'turn'] as const) {
      const list = targetsOf(s, kind);
      expect(list.length).toBeGreaterThan(0);
      for (const from of [0, Math.floor(s.count / 3), s.count - 1]) {
        expect(nextTarget(s, kind, from, 1)).toBe(navigate(s.columns, s.typeNames, s.count, kind, from, 1));
        expect(nextTarget(s, kind, from, -1)).toBe(navigate(s.columns, s.typeNames, s.count, kind, from, -1));
      }
    }
    expect(targetsOf(s, 'replace').length).toBeGreaterThan(1);
    const lastReplace = targetsOf(s, 'replace').at(-1)!;
    useCursor.getState().seek(lastReplace);
    command('next-replace').run();
    expect(useCursor.getState().index).toBe(lastReplace);
    expect(useFlash.getState().text).toBe('no next replace');
    command('prev-replace').run();
    expect(useCursor.getState().index).toBeLessThan(lastReplace);
    expect(useFlash.getState().text).toBeNull();
  });

  it('go-to refuses a seq out of range or not a number, with a message', () => {
    const s = useSession.getState().summary!;
    const last = s.columns.seq[s.count - 1];
    expect(checkSeq('99999', s.columns.seq, s.count)).toBe(`seq 99999 is out of range: this log has seqs 0–${last}`);
    expect(checkSeq('abc', s.columns.seq, s.count)).toMatch(/not a seq/);
    expect(checkSeq(' 12 ', s.columns.seq, s.count)).toBe(12);
    expect(checkSeq('3', Float64Array.from([0, 1, 2, 5]), 4)).toBe('there is no event with seq 3 (the log skips from 2 to 5)');
  });
});

describe('keys stay with the control that has focus', () => {
  const el = (html: string) => { document.body.innerHTML = html; return document.body.firstElementChild!; };
  it('a separator or slider keeps its arrows, a text box every key but Escape, a button its Space', () => {
    const sep = el('<div role="separator" tabindex="0"></div>');
    expect(elementOwnsKey(sep, 'ArrowRight')).toBe(true);
    expect(elementOwnsKey(sep, 'j')).toBe(false);
    const range = el('<input type="range">');
    expect(elementOwnsKey(range, 'ArrowLeft')).toBe(true);
    expect(elementOwnsKey(el('<input type="range" data-global-keys="">'), 'ArrowLeft')).toBe(false);
    const search = el('<input type="text">');
    expect(elementOwnsKey(search, 'j')).toBe(true);
    expect(elementOwnsKey(search, 'Escape')).toBe(false);
    const button = el('<button>x</button>');
    expect(elementOwnsKey(button, ' ')).toBe(true);
    expect(elementOwnsKey(button, 'ArrowRight')).toBe(false);
    expect(elementOwnsKey(document.body, 'ArrowRight')).toBe(false);
  });

  it('Escape leaves the search box', () => {
    const input = el('<input type="text" aria-label="Find events">') as HTMLInputElement;
    input.focus();
    expect(document.activeElement).toBe(input);
    command('close').run();
    expect(document.activeElement).not.toBe(input);
  });
});
