// The messages between the timeline page (media/webview/timeline.js) and the extension. What the
// page posts is parsed strictly: the page shows server content, so its messages are untrusted.
import * as z from '../protocol/zod';
import type { TimelineBatch, TimelineMask, TimelineSchema } from './timelineView';
import type { ItemDetails } from './timelineSelection';

const ServerId = z.lazy(() => z.string().check(z.minLength(1), z.maxLength(1000)));
const ItemId = z.lazy(() => z.int().check(z.gte(0), z.lte(Number.MAX_SAFE_INTEGER)));
const Time = z.lazy(() => z.number().check(z.refine((n) => Number.isFinite(n), 'a finite time')));

export const TimelineFilterSchema = z.lazy(() =>
  z.strictObject({
    servers: z.optional(z.array(ServerId).check(z.maxLength(1000))),
    methods: z.optional(z.array(z.string().check(z.maxLength(1000))).check(z.maxLength(1000))),
    text: z.optional(z.string().check(z.maxLength(1000))),
    direction: z.optional(z.enum(['all', 'send', 'receive'])),
    errors: z.optional(z.boolean()),
    slow: z.optional(z.boolean()),
  }),
);

export const TimelineSelectionSchema = z.lazy(() =>
  z.strictObject({
    server: ServerId,
    ids: z.optional(z.array(ItemId).check(z.maxLength(1_000_000))),
    range: z.optional(z.strictObject({ from: Time, to: Time })),
  }),
);

export const TimelineInboundSchema = z.lazy(() =>
  z.discriminatedUnion('type', [
    z.strictObject({ type: z.literal('ready') }),
    z.strictObject({ type: z.literal('filter'), filter: TimelineFilterSchema }),
    /** The user selected an item: its frames and links. */
    z.strictObject({ type: z.literal('details'), server: ServerId, id: ItemId }),
    /** "Show in History": the tool panel of the call, showing it. */
    z.strictObject({ type: z.literal('showHistory'), server: ServerId, id: ItemId }),
    /** "Export": the selection (per server) as a recording file. */
    z.strictObject({ type: z.literal('export'), selections: z.array(TimelineSelectionSchema).check(z.minLength(1), z.maxLength(1000)) }),
    z.strictObject({ type: z.literal('clear') }),
  ]),
);
export type TimelineInbound = z.infer<typeof TimelineInboundSchema>;

/** What the extension posts. */
export type TimelineOutbound =
  | { readonly type: 'init'; readonly schema: TimelineSchema; readonly mode: 'live' | 'recording'; readonly title: string; readonly focusServer?: string }
  | (TimelineBatch & { readonly now: number })
  | TimelineMask
  | { readonly type: 'details'; readonly details: ItemDetails & { readonly serverName: string; readonly inHistory: boolean } }
  | { readonly type: 'gone'; readonly server: string; readonly id: number }
  /** Shows only `server`; without one, every server. */
  | { readonly type: 'focusServer'; readonly server?: string }
  | { readonly type: 'notice'; readonly text: string };
