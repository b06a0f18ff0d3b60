// The start policy's decisions (src/registry/startPolicy.ts), one by one: when the setting starts
// servers unasked, what the start gate decides before it asks anything, what a configuration
// change does to a server, which servers the first automatic start takes, a start on first use
// and dev mode's restart on a file change. The registry and the editor run these same functions;
// their own tests (registry.test, restrictedMode.test, extension/trust/startGate.test) drive them
// with real servers and the editor's double.
import assert from 'node:assert/strict';
import { suite, test } from 'node:test';
import {
  EntryFacts,
  GateFacts,
  StartMoment,
  StartPolicy,
  automaticStartReason,
  configurationStep,
  gateVerdict,
  readStartPolicy,
  restartsOnFileChange,
  startsAutomatically,
  startsOnUse,
} from '../../src/registry/startPolicy';
import type { ServerStatus } from '../../src/registry/serverHandle';

const STOPPED: ServerStatus = { kind: 'stopped' };
const RUNNING: ServerStatus = { kind: 'running' };
const STARTING: ServerStatus = { kind: 'starting' };
const STOPPING: ServerStatus = { kind: 'stopping' };
const FAILED: ServerStatus = { kind: 'error', message: 'exited with code 1', stderrTail: [] };
const BLOCKED: ServerStatus = { kind: 'blocked', reason: 'Workspace is not trusted' };

suite('the start policy setting', () => {
  test('reads the three values and takes anything else for the default, onViewVisible', () => {
    assert.equal(readStartPolicy('onStartup'), 'onStartup');
    assert.equal(readStartPolicy('never'), 'never');
    assert.equal(readStartPolicy('onViewVisible'), 'onViewVisible');
    for (const odd of [undefined, '', 'OnStartup', 3, null, {}]) assert.equal(readStartPolicy(odd), 'onViewVisible', String(odd));
  });

  const moments: Record<string, StartMoment> = {
    'read, view hidden': { kind: 'configurationRead', viewVisible: false },
    'read, view showing': { kind: 'configurationRead', viewVisible: true },
    'view shown': { kind: 'viewShown' },
    'policy changed': { kind: 'policyChanged' },
  };
  const expected: Record<StartPolicy, Record<string, string | undefined>> = {
    onStartup: { 'read, view hidden': 'mcpHost.startPolicy is onStartup', 'read, view showing': 'mcpHost.startPolicy is onStartup', 'view shown': undefined, 'policy changed': 'mcpHost.startPolicy is onStartup' },
    onViewVisible: { 'read, view hidden': undefined, 'read, view showing': 'the MCP Host view was shown', 'view shown': 'the MCP Host view was shown', 'policy changed': undefined },
    never: { 'read, view hidden': undefined, 'read, view showing': undefined, 'view shown': undefined, 'policy changed': undefined },
  };
  for (const policy of ['onStartup', 'onViewVisible', 'never'] as const) {
    test(`${policy}: starts servers unasked only at its moments, and says why`, () => {
      for (const [name, moment] of Object.entries(moments)) assert.equal(automaticStartReason(policy, moment), expected[policy][name], `${policy} at "${name}"`);
    });
  }

  test('what needs the servers (a chat request to @mcp) starts them under every policy, even never', () => {
    for (const policy of ['onStartup', 'onViewVisible', 'never'] as const) assert.equal(automaticStartReason(policy, { kind: 'used', by: 'a chat request to @mcp' }), 'a chat request to @mcp');
  });
});

suite('the start gate, before it asks anything', () => {
  const workspace: GateFacts = { workspaceDefined: true, trusted: true, consent: undefined, startedByUser: false, dismissed: false, hasInputs: false };
  const user: GateFacts = { ...workspace, workspaceDefined: false };

  test('a server from the user settings needs neither trust nor consent: it resolves, or asks its inputs', () => {
    assert.deepEqual(gateVerdict({ ...user, trusted: false }), { kind: 'resolve' });
    assert.deepEqual(gateVerdict({ ...user, consent: 'denied' }), { kind: 'resolve' }, 'a stale answer for a workspace entry does not apply');
    assert.deepEqual(gateVerdict({ ...user, hasInputs: true }), { kind: 'askUser', first: 'input' });
  });

  test('a workspace server in Restricted Mode is blocked, even by the user’s own Start and with consent given', () => {
    assert.deepEqual(gateVerdict({ ...workspace, trusted: false }), { kind: 'blocked', why: 'untrusted' });
    assert.deepEqual(gateVerdict({ ...workspace, trusted: false, startedByUser: true, consent: 'allowed' }), { kind: 'blocked', why: 'untrusted' });
  });

  test('a workspace server never answered for asks consent first, whether it has inputs or not', () => {
    assert.deepEqual(gateVerdict(workspace), { kind: 'askUser', first: 'consent' });
    assert.deepEqual(gateVerdict({ ...workspace, hasInputs: true }), { kind: 'askUser', first: 'consent' });
  });

  test('allowed: it resolves, or asks its inputs', () => {
    assert.deepEqual(gateVerdict({ ...workspace, consent: 'allowed' }), { kind: 'resolve' });
    assert.deepEqual(gateVerdict({ ...workspace, consent: 'allowed', hasInputs: true }), { kind: 'askUser', first: 'input' });
    assert.deepEqual(gateVerdict({ ...workspace, consent: 'allowed', dismissed: true }), { kind: 'resolve' }, 'an old dismissal does not hold over an answer');
  });

  test('denied or dismissed holds for automatic starts; the user’s Start asks again', () => {
    assert.deepEqual(gateVerdict({ ...workspace, consent: 'denied' }), { kind: 'blocked', why: 'denied' });
    assert.deepEqual(gateVerdict({ ...workspace, dismissed: true }), { kind: 'blocked', why: 'dismissed' });
    assert.deepEqual(gateVerdict({ ...workspace, consent: 'denied', startedByUser: true }), { kind: 'askUser', first: 'consent' });
    assert.deepEqual(gateVerdict({ ...workspace, dismissed: true, startedByUser: true }), { kind: 'askUser', first: 'consent' });
  });
});

suite('a new configuration, server by server', () => {
  const known = (over: Partial<Extract<EntryFacts, { known: true }>>): EntryFacts => ({ known: true, unchanged: false, status: STOPPED, active: false, stoppedByUser: false, ...over });

  test('a new entry starts once the policy has fired, else waits', () => {
    assert.equal(configurationStep({ known: false }, true), 'start');
    assert.equal(configurationStep({ known: false }, false), 'keep');
  });

  test('an unchanged entry is left alone, but a blocked one is prepared again (trust or consent may have changed)', () => {
    for (const status of [STOPPED, RUNNING, FAILED, STARTING]) assert.equal(configurationStep(known({ unchanged: true, status, active: status === RUNNING }), true), 'keep', status.kind);
    assert.equal(configurationStep(known({ unchanged: true, status: BLOCKED }), false), 'prepareAgain');
    assert.equal(configurationStep(known({ unchanged: true, status: BLOCKED, stoppedByUser: true }), true), 'prepareAgain');
  });

  test('a changed entry that runs restarts with the new configuration, whatever the policy', () => {
    assert.equal(configurationStep(known({ status: RUNNING, active: true }), false), 'restart');
    assert.equal(configurationStep(known({ status: FAILED, active: true }), false), 'restart', 'a crash restart was pending');
  });

  test('a changed entry that does not run restarts only once the policy fired, and never when the user stopped it', () => {
    assert.equal(configurationStep(known({ status: FAILED }), true), 'restart');
    assert.equal(configurationStep(known({ status: STOPPED }), false), 'announce');
    assert.equal(configurationStep(known({ status: STOPPED, stoppedByUser: true }), true), 'announce');
  });
});

suite('automatic starts, first use and dev mode', () => {
  test('the first automatic start takes stopped and failed servers the user did not stop', () => {
    assert.equal(startsAutomatically({ stoppedByUser: false, status: STOPPED }), true);
    assert.equal(startsAutomatically({ stoppedByUser: false, status: FAILED }), true);
    assert.equal(startsAutomatically({ stoppedByUser: true, status: STOPPED }), false);
    for (const status of [RUNNING, STARTING, STOPPING, BLOCKED]) assert.equal(startsAutomatically({ stoppedByUser: false, status }), false, status.kind);
  });

  test('a start on first use starts a configured server that neither runs nor starts, only when asked to', () => {
    for (const status of [STOPPED, FAILED, BLOCKED, STOPPING]) assert.equal(startsOnUse(true, false, status), true, status.kind);
    for (const status of [RUNNING, STARTING]) assert.equal(startsOnUse(true, false, status), false, status.kind);
    assert.equal(startsOnUse(undefined, false, STOPPED), false);
    assert.equal(startsOnUse(true, true, STOPPED), false, 'a server removed from the configuration');
  });

  test('a watched file change restarts a server unless it is stopped (a failed one gets another chance)', () => {
    assert.equal(restartsOnFileChange(STOPPED), false);
    for (const status of [RUNNING, FAILED, STARTING, BLOCKED]) assert.equal(restartsOnFileChange(status), true, status.kind);
  });
});
