// Makes `require('vscode')` answer with the double (double.ts) in this process: what the unit
// suites call before they load an editor-layer module. Installing twice is harmless.
import Module = require('node:module');
import * as double from './double';

type Resolve = (request: string, parent: unknown, ...rest: unknown[]) => string;
const moduleStatics = Module as unknown as { _resolveFilename: Resolve };

let installed = false;

/** Routes `vscode` to the double; returns it. */
export function installVscodeDouble(): typeof double {
  if (installed) return double;
  installed = true;
  const resolve = moduleStatics._resolveFilename;
  moduleStatics._resolveFilename = function (request, parent, ...rest) {
    return request === 'vscode' ? require.resolve('./double') : resolve.call(this, request, parent, ...rest);
  };
  return double;
}

installVscodeDouble();
export const vscode = double;
