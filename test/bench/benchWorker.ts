// The benchmark's worker (test/bench/bench.ts): one (client, scenario) measurement in its own process.
import { performance } from 'node:perf_hooks';
import { ClientName, CLIENTS, gc, ScenarioName, SCENARIOS } from './benchScenarios';
import { DRIVERS } from './benchDrivers';
import { installListenerCensus, SocketCount, startHttpServer } from './benchHttpServer';

/** Resources at the end of the warm-up and at the end of the last measured run (HTTP only). */
export interface Census {
  readonly socketsAfterWarmup: SocketCount;
  readonly socketsAtEnd: SocketCount;
  readonly listenersAfterWarmup: number;
  readonly listenersAtEnd: number;
  /** Process warnings (MaxListenersExceededWarning and the like) during the whole worker, and the first one. */
  readonly warnings: number;
  readonly firstWarning?: string;
}

export interface WorkerResult {
  readonly client: ClientName;
  readonly scenario: ScenarioName;
  /** Measured run times in ms (warm-up excluded). */
  readonly runs: number[];
  /** CPU time (user + system) of this client process per measured run, in ms: steadier than wall time on a busy machine. */
  readonly cpu: number[];
  /** Set when a run failed; later runs are skipped. */
  readonly error?: string;
  /** RSS after connecting, before the warm-up, in bytes. */
  readonly baselineRss: number;
  /** Peak RSS of the worker over its whole life, in bytes. */
  readonly peakRss: number;
  readonly census?: Census;
}

export async function worker(client: ClientName, scenarioName: ScenarioName): Promise<WorkerResult> {
  const scenario = SCENARIOS.find((s) => s.name === scenarioName);
  if (!scenario || !CLIENTS.includes(client)) throw new Error(`unknown worker ${client} ${scenarioName}`);
  const http = scenario.transport === 'http' ? await startHttpServer() : undefined;
  let warnings = 0;
  let firstWarning: string | undefined;
  if (http) {
    process.on('warning', (w) => {
      warnings++;
      firstWarning ??= `${w.name}: ${w.message}`;
    });
  }
  const countListeners = http ? installListenerCensus() : undefined;
  const driver = http ? await DRIVERS.http[client](http.url) : await DRIVERS.stdio[client]();
  const baselineRss = process.memoryUsage.rss();
  const runs: number[] = [];
  const cpu: number[] = [];
  let error: string | undefined;
  let afterWarmup: { sockets: SocketCount; listeners: number } | undefined;
  let census: Census | undefined;
  try {
    // fetch returns a connection to its pool a moment after the answer was read: a burst that
    // follows another at once finds few idle and opens more, up to twice the calls in flight.
    const warmups = http ? 2 : 1;
    for (let i = 0; i < warmups + scenario.reps; i++) {
      // Large results: the previous run's result is garbage by now; collect it so the peak RSS is
      // that of one result in flight, not two. (Not for the throughput runs: a forced full GC
      // shrinks the heap and makes the next run collect more often.)
      if (scenario.payload) gc?.();
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      await scenario.run(driver);
      const elapsed = performance.now() - started;
      const used = process.cpuUsage(cpuStart);
      if (i >= warmups) {
        runs.push(elapsed);
        cpu.push((used.user + used.system) / 1000);
      } else if (i === warmups - 1 && http && countListeners) {
        afterWarmup = { sockets: await http.sockets(), listeners: await countListeners() };
      }
    }
    if (http && countListeners && afterWarmup) {
      census = { socketsAfterWarmup: afterWarmup.sockets, socketsAtEnd: await http.sockets(), listenersAfterWarmup: afterWarmup.listeners, listenersAtEnd: await countListeners(), warnings, firstWarning };
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  await Promise.race([driver.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000).unref())]);
  await http?.close();
  // maxRSS is in KiB on every platform Node supports.
  return { client, scenario: scenarioName, runs, cpu, error, baselineRss, peakRss: process.resourceUsage().maxRSS * 1024, census };
}
