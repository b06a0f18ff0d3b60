// The items of one Ask Arguments step (src/extension/panels/argumentItems.ts), without a quick pick.
import { suite, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { argumentItems, completionContext } from '../../../src/extension/panels/argumentItems';

const optional = { name: 'team', required: false };
const required = { name: 'team', title: 'Team', required: true };
const base = { typed: '', suggestions: [], busy: false, canComplete: true };

suite('Ask Arguments: the items of a step', () => {
  test('an empty optional argument offers Skip first, with the server\'s suggestions after it', () => {
    const items = argumentItems({ ...base, arg: optional, suggestions: ['Engineering', 'Sales'] });
    assert.deepEqual(
      items.map((i) => [i.label, i.value]),
      [
        ['$(debug-step-over) Skip', ''],
        ['Engineering', 'Engineering'],
        ['Sales', 'Sales'],
      ],
    );
  });

  test('after typing, a suggestion comes before what was typed, so Enter takes the suggestion', () => {
    const items = argumentItems({ ...base, arg: required, typed: 'E', suggestions: ['Engineering'] });
    assert.deepEqual(
      items.map((i) => [i.description, i.value]),
      [
        ['suggested by the server', 'Engineering'],
        ['as typed', 'E'],
      ],
    );
  });

  test('what was typed is not listed twice when the server suggests it too', () => {
    const items = argumentItems({ ...base, arg: required, typed: 'Sales', suggestions: ['Sales'] });
    assert.deepEqual(items.map((i) => i.description), ['suggested by the server']);
  });

  test('never an empty list: an empty required argument says what to do, and why nothing is suggested', () => {
    assert.deepEqual(argumentItems({ ...base, arg: required }).map((i) => [i.label, i.description]), [['$(edit) Type Team', 'the server suggests nothing for an empty value']]);
    assert.equal(argumentItems({ ...base, arg: required, busy: true })[0].description, 'asking the server for suggestions…');
    assert.equal(argumentItems({ ...base, arg: required, canComplete: false })[0].description, 'required');
  });

  test('a suggestion cannot draw an icon in the list; its value stays as the server sent it', () => {
    const [item] = argumentItems({ ...base, arg: required, suggestions: ['$(alert) urgent'] });
    assert.equal(item.label, '\\$(alert) urgent');
    assert.equal(item.value, '$(alert) urgent');
  });
});

suite('Ask Arguments: the completion context', () => {
  test('the other answers go with the request, the argument being asked for does not', () => {
    assert.deepEqual(completionContext({ team: 'Eng', region: 'eu' }, 'team'), { arguments: { region: 'eu' } });
  });

  test('no other answers: no context at all', () => {
    assert.equal(completionContext({ team: 'Eng' }, 'team'), undefined);
    assert.equal(completionContext({}, 'team'), undefined);
  });
});
