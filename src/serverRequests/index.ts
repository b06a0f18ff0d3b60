// Serving what servers ask of the host: sampling and elicitation. Pure logic, no `vscode`.
export * from './answerStream';
export * from './attach';
export * from './dialogQueue';
export * from './elicitation';
export * from './modelSelection';
export * from './policy';
export * from './sampling';
export * from './types';
export * from '../content/urlSafety';
export * from './dialogMessages';
