// The one place zod is configured; every module imports its schema builders from here
// (`import * as z from '../protocol/zod'`). zod/mini rather than classic zod: classic cannot be
// tree-shaken and would be over half the extension bundle.
import { config } from 'zod/mini';
import { en } from 'zod/locales';

// jitless: otherwise zod probes `navigator` and `new Function` on the first object parse to
// compile fast parsers, and VS Code's extension host logs the `navigator` probe as an error
// (PendingMigrationError) on every activation. English messages, as classic zod gives them.
config({ jitless: true, ...en() });

export * from 'zod/mini';
