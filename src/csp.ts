/**
 * The Content-Security-Policy of the built page. Logs hold secrets and their
 * text is untrusted: no inline or foreign scripts, no eval, no plugins.
 * `connect-src` allows http(s) only for the `?url=` fetch the user asks for.
 * Dev mode needs inline HMR scripts, so vite.config.ts injects it at build only;
 * `dsh-devtools open` sends the same policy as a header with every file it serves.
 */
export const CSP: string = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self' https: http: blob:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
