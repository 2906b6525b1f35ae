// The projection helper in a Node worker thread (the bench's twin of the app's
// second load worker): TypeScript through tsx, the same host code the app runs.
import { register } from 'tsx/esm/api';
register();
await import('./node-projector-host.ts');
