// The host's language models for sampling: VS Code's chat models (`vscode.lm`). A request runs
// with the model's own tokenizer enforcing `maxTokens` and the stop sequences while the answer
// streams (chat models take neither). The system prompt goes first as a user message: the API
// has no system role. Images go to the model only where this VS Code has LanguageModelDataPart.
import * as vscode from 'vscode';
import { collectAnswer } from '../../serverRequests/answerStream';
import type { ModelInfo } from '../../serverRequests/modelSelection';
import { ModelUnusableError, type LanguageModels, type ModelAnswer, type SamplingRun } from '../../serverRequests/sampling';
import { errorMessage } from '../../protocol/errors';

/** LanguageModelDataPart (VS Code 1.104+), looked up at run time: the product builds against 1.100. */
interface DataPartStatic {
  image(data: Uint8Array, mimeType: string): unknown;
}

function dataPartClass(): DataPartStatic | undefined {
  // Asked of the API object itself: the bundle's `vscode` module exports only the names of the
  // typings it builds against (esbuild.mjs), and 1.100's have no LanguageModelDataPart.
  const api = require('vscode') as { LanguageModelDataPart?: DataPartStatic };
  const ctor = api.LanguageModelDataPart;
  return ctor && typeof ctor.image === 'function' ? ctor : undefined;
}

/** Whether images in sampling messages reach the model in this VS Code. */
export function modelsTakeImages(): boolean {
  return dataPartClass() !== undefined;
}

function info(m: vscode.LanguageModelChat): ModelInfo {
  return { id: m.id, name: m.name, family: m.family, vendor: m.vendor, version: m.version, maxInputTokens: m.maxInputTokens };
}

export function toChatMessages(run: SamplingRun): vscode.LanguageModelChatMessage[] {
  const images = dataPartClass();
  const out: vscode.LanguageModelChatMessage[] = [];
  if (run.systemPrompt) out.push(vscode.LanguageModelChatMessage.User(`System instructions:\n${run.systemPrompt}`));
  for (const m of run.messages) {
    const parts: vscode.LanguageModelTextPart[] = [];
    for (const p of m.parts) {
      if (p.type === 'text') parts.push(new vscode.LanguageModelTextPart(p.text));
      else if (p.type === 'image' && images && m.role === 'user') parts.push(images.image(Buffer.from(p.data, 'base64'), p.mimeType) as vscode.LanguageModelTextPart);
      else if (p.type === 'audio') parts.push(new vscode.LanguageModelTextPart(`[audio (${p.mimeType}) left out: VS Code language models take no audio]`));
      else parts.push(new vscode.LanguageModelTextPart(`[${p.type} (${p.mimeType}) left out: this VS Code cannot send it to a language model]`));
    }
    out.push(m.role === 'user' ? vscode.LanguageModelChatMessage.User(parts) : vscode.LanguageModelChatMessage.Assistant(parts));
  }
  return out;
}

function describeError(error: unknown): string {
  if (error instanceof vscode.LanguageModelError) {
    switch (error.code) {
      case vscode.LanguageModelError.NoPermissions.name:
        return `MCP Host may not use this model (${error.message || 'no permission'}); allow it when VS Code asks`;
      case vscode.LanguageModelError.Blocked.name:
        return `the request was blocked (${error.message || 'quota or policy'})`;
      case vscode.LanguageModelError.NotFound.name:
        return `the model is gone (${error.message || 'not found'})`;
      default:
        return error.message || error.code;
    }
  }
  return errorMessage(error);
}

export class VsCodeLanguageModels implements LanguageModels {
  private readonly chats = new Map<string, vscode.LanguageModelChat>();

  /** `justification` is shown by VS Code when it asks the user to let MCP Host use a model. */
  constructor(private readonly justification: () => string) {}

  async models(): Promise<readonly ModelInfo[]> {
    const list = await vscode.lm.selectChatModels();
    this.chats.clear();
    for (const m of list) this.chats.set(m.id, m);
    return list.map(info);
  }

  async generate(model: ModelInfo, run: SamplingRun, signal: AbortSignal): Promise<ModelAnswer> {
    const chat = this.chats.get(model.id) ?? (await vscode.lm.selectChatModels({ id: model.id }))[0];
    if (!chat) throw new Error(`the model ${model.id} is no longer available`);
    const cts = new vscode.CancellationTokenSource();
    const onAbort = () => cts.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const options: vscode.LanguageModelChatRequestOptions = {
        justification: this.justification(),
        ...(run.temperature !== undefined ? { modelOptions: { temperature: run.temperature } } : {}),
      };
      const response = await chat.sendRequest(toChatMessages(run), options, cts.token);
      const collected = await collectAnswer(
        response.text,
        { maxTokens: run.maxTokens, ...(run.stopSequences ? { stopSequences: run.stopSequences } : {}), countTokens: (text) => Promise.resolve(chat.countTokens(text, cts.token)) },
        () => cts.cancel(),
      );
      return collected;
    } catch (error) {
      // No permission or no quota: this model cannot answer here, and is not offered again this session.
      const unusable = error instanceof vscode.LanguageModelError && (error.code === vscode.LanguageModelError.NoPermissions.name || error.code === vscode.LanguageModelError.Blocked.name);
      throw unusable ? new ModelUnusableError(describeError(error)) : new Error(describeError(error));
    } finally {
      signal.removeEventListener('abort', onAbort);
      cts.dispose();
    }
  }
}
