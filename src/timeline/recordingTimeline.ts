// A recording (`--record`, "Record Session", or an export of the timeline) read into a timeline of
// its own, so it opens as a live session does: one server, its frames at their recorded times.
import type { Recording } from '../usecases/recording';
import { Timeline } from './timelineModel';

/** The timeline of a recording; its one server has the id `server`. Nothing is let go: a recording is already bounded. */
export function recordingTimeline(recording: Recording, server: string): Timeline {
  const timeline = new Timeline(() => ({ maxFrames: Number.MAX_SAFE_INTEGER, maxPayloadBytes: Number.MAX_SAFE_INTEGER }));
  const start = recording.header.startedAt;
  timeline.sessionStarted(server, start + (recording.frames[0]?.t ?? 0));
  for (const frame of recording.frames) timeline.push(server, { direction: frame.dir, message: frame.message, bytes: frame.bytes, time: start + frame.t });
  return timeline;
}
