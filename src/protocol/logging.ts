/**
 * How much a host log line matters, from most to least detail. The names are also the
 * methods of VS Code's LogOutputChannel, so the editor maps them one to one.
 */
export type LogSeverity = 'trace' | 'debug' | 'info' | 'warn' | 'error';
