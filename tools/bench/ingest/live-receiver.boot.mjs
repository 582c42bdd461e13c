// Entry of the live-receiver worker thread: registers tsx's loader, then runs the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./live-receiver.ts');
