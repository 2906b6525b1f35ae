// A generated log with secrets planted where agents leak them: an API key in
// the user's prompt, a bearer token in a tool call's arguments (a JSON string
// inside the JSON line), a private key (with its newlines) in a tool result.
import { generateLog, type GenerateOptions } from '../../src/core/generate/generate-log.ts';

export const PLANTED = {
  apiKey: 'sk-proj-PLANTEDk3y0123456789abcdefXYZ',
  bearer: 'PLANTEDb3arer0123456789abcdefSIG',
  privateKeyBody: 'MIIEplantedPRIVATEkeyBODY0123456789',
};
export const PRIVATE_KEY = `-----BEGIN RSA PRIVATE KEY-----\n${PLANTED.privateKeyBody}\n-----END RSA PRIVATE KEY-----`;
/** Every planted secret's distinctive text (what a test searches the output for). */
export const PLANTED_TEXTS = [PLANTED.apiKey, PLANTED.bearer, PLANTED.privateKeyBody];

/** The log's text with the three secrets planted (each at least once; the key and token wherever their host text recurs). */
export function logWithSecrets(options: Partial<GenerateOptions> = {}): string {
  const log = generateLog({ dialect: 'v0', seed: 7, turns: 3, ...options });
  const inJson = (s: string) => JSON.stringify(s).slice(1, -1);
  const prompt = log.events.find((e) => e.type === 'user/message')!.data.content[0].text as string;
  const result = log.events.find((e) => e.type === 'tool/result');
  const resultText = JSON.stringify(result!.data).match(/"text":"((?:[^"\\]|\\.)+)"/)![1];
  // A tool call's arguments are JSON inside the line's JSON: `\"path\": \"…\"` in the text.
  const path = /\\"path\\": \\"[^\\]+\\"/.exec(log.text)![0];
  let text = log.text.replaceAll(inJson(prompt), inJson(`My key is ${PLANTED.apiKey}. ${prompt}`));
  text = text.replace(resultText, `${inJson(PRIVATE_KEY)}\\n${resultText}`);
  text = text.replaceAll(path, `${path}, \\"header\\": \\"Bearer ${PLANTED.bearer}\\"`);
  for (const secret of PLANTED_TEXTS) if (!text.includes(secret)) throw new Error(`could not plant ${secret}`);
  return text;
}
