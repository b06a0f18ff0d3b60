import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ModelInfo, chooseModel, describeModel } from '../../src/serverRequests/modelSelection';

const m = (id: string, family: string, name: string, maxInputTokens?: number): ModelInfo => ({ id, family, name, vendor: 'test', ...(maxInputTokens ? { maxInputTokens } : {}) });
const MODELS = [m('gpt-4o-mini', 'gpt-4o-mini', 'GPT-4o mini', 128_000), m('gpt-4o', 'gpt-4o', 'GPT-4o', 128_000), m('claude-3.5-sonnet', 'claude-3.5-sonnet', 'Claude 3.5 Sonnet', 200_000), m('claude-3-haiku', 'claude-3-haiku', 'Claude 3 Haiku', 100_000)];

describe('model selection by hints', () => {
  test('hints are tried in order; the first that names a model wins', () => {
    const c = chooseModel({ hints: ['gemini-1.5-pro', 'sonnet', 'gpt'] }, MODELS);
    assert.equal(c.kind, 'hint');
    assert.equal(c.kind === 'hint' && c.model.id, 'claude-3.5-sonnet');
    assert.equal(c.kind === 'hint' && c.hint, 'sonnet');
  });

  test('substring match is case-insensitive over id, family and name', () => {
    const byName = chooseModel({ hints: ['Haiku'] }, MODELS);
    assert.equal(byName.kind === 'hint' && byName.model.id, 'claude-3-haiku');
    const byFamily = chooseModel({ hints: ['fam-x'] }, [m('id-1', 'my-fam-x', 'Something')]);
    assert.equal(byFamily.kind === 'hint' && byFamily.model.id, 'id-1');
  });

  test('an exact match beats a longer name containing the hint', () => {
    const c = chooseModel({ hints: ['gpt-4o'] }, MODELS);
    assert.equal(c.kind === 'hint' && c.model.id, 'gpt-4o', 'not gpt-4o-mini, which comes first in the list');
  });

  test('among several matches, intelligence priority prefers the larger context window', () => {
    const smart = chooseModel({ hints: ['claude'], intelligencePriority: 0.9, speedPriority: 0.1 }, MODELS);
    assert.equal(smart.kind === 'hint' && smart.model.id, 'claude-3.5-sonnet');
    const haikuFirst = [MODELS[3], MODELS[2]];
    const fast = chooseModel({ hints: ['claude'], speedPriority: 0.9, intelligencePriority: 0.1 }, haikuFirst);
    assert.equal(fast.kind === 'hint' && fast.model.id, 'claude-3-haiku', 'else the first in the list');
  });

  test('no hints, empty hints, or no match: the user picks', () => {
    assert.deepEqual(chooseModel(undefined, MODELS), { kind: 'none' });
    assert.deepEqual(chooseModel({ hints: [] }, MODELS), { kind: 'none' });
    assert.deepEqual(chooseModel({ hints: ['  ', ''] }, MODELS), { kind: 'none' });
    assert.deepEqual(chooseModel({ hints: ['llama'] }, MODELS), { kind: 'none' });
    assert.deepEqual(chooseModel({ hints: ['gpt'] }, []), { kind: 'none' });
  });

  test('describeModel names vendor and family', () => {
    assert.equal(describeModel(MODELS[1]), 'GPT-4o (test · gpt-4o)');
    assert.equal(describeModel(m('x', 'X', 'X')), 'X (test)');
  });
});
