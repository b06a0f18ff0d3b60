// The part of the extension activation does not read (a lazy chunk, ~105 KiB of input): the use
// cases (panels, resources, tasks, saved tests, @mcp's handler, history), what they show on the
// tree (server icons, subscriptions, tasks, tools off for models), the timeline's feed and the
// Skills group. lazyFeatures.ts loads it after the configuration's first read, or before the
// first server starts, or with the first of its commands, panels or chat requests, whichever
// comes first; its commands, panel serializers and @mcp are registered at activation.
import * as vscode from 'vscode';
import type { EditorHost } from '../editorHost';
import type { ServersTreeProvider, TreeNode } from '../tree/serversTree';
import { registerUseCases } from './useCaseCommands';
import { registerTimeline } from '../timeline/timelineFeed';
import { ServerSkills } from '../../skills/serverSkills';
import { SkillsTreeSection } from '../skills/skillsTree';
import { registerSkillDocuments } from '../skills/skillDocuments';
import { unseenTasksBadge } from '../../usecases/taskText';

/** What activation made that the use cases attach to. */
export interface UseCaseWiringHost {
  readonly context: vscode.ExtensionContext;
  readonly editorHost: EditorHost;
  readonly tree: ServersTreeProvider;
  readonly view: vscode.TreeView<TreeNode>;
  /** The "MCP Host" output channel. */
  readonly log: vscode.LogOutputChannel;
  /** @mcp, created at activation; answered by the use cases' handler from now on. */
  readonly participant: vscode.ChatParticipant;
}

/** The wired use cases: dispose with the extension. */
export interface WiredUseCases extends vscode.Disposable {
  /** Shows again a panel that was open when the window reloaded (its serializer was registered at activation). */
  restorePanel(viewType: string, panel: vscode.WebviewPanel, state: unknown): Promise<void>;
}

/** Registers the use cases' commands (in place of activation's placeholders) and attaches them to the tree. */
export function wireUseCases({ context, editorHost, tree, view, log, participant }: UseCaseWiringHost): WiredUseCases {
  // Call tools, read resources, get prompts, server actions.
  const useCases = registerUseCases(
    context,
    {
      servers: editorHost.registry,
      log: (id, level, text) => editorHost.serverLog(id, level, text),
      onDidChangeServers: editorHost.onDidChange,
      redact: (text) => editorHost.redact(text),
      setHealth: (id, health) => editorHost.health.set(id, health),
      signInState: (id) => editorHost.signIns.signInState(id),
      stateText: (id) => {
        const h = editorHost.registry.get(id);
        return h && editorHost.tree.stateText(h);
      },
      prepare: (id) => editorHost.prepareForDiagnosis(id),
      debugServer: (id, signal) => editorHost.devMode.debugWhile(id, signal),
      startServers: (why) => editorHost.startIfPolicySays({ kind: 'used', by: why }),
      resolveUrlElicitation: (error, id) => editorHost.serverRequests.handleUrlElicitationRequired(error, { id, name: editorHost.registry.get(id)?.entry.name ?? id }),
      openAppLink: (id, url, message, signal) => editorHost.serverRequests.openLinkWithConsent(url, { id, name: editorHost.registry.get(id)?.entry.name ?? id }, message, signal),
      traceOn: (id) => editorHost.logs.get(id).traceOn,
      hostLog: (text) => log.info(text),
    },
    participant,
  );
  const disposables: vscode.Disposable[] = [useCases, tree.showIcons(useCases.icons), tree.showSubscriptions(useCases.subscriptions), tree.showChatMarks(useCases.chat), editorHost.chatShare.followModelSwitches(useCases.chat)];
  // Every server's frames on one time axis ("Open Timeline"); recordings open there too.
  disposables.push(registerTimeline(context, editorHost, useCases.history));
  disposables.push(tree.showTasks(useCases.tasks));
  // Tasks that ended unseen (their notice fades unread): the view's badge counts them until opened.
  disposables.push(useCases.tasks.onDidChange(() => (view.badge = unseenTasksBadge(useCases.tasks.unseenCount()))));
  // Skills (Skills extension): a Skills group per server that offers them, opened as read-only documents.
  const skills = new ServerSkills((id) => editorHost.registry.get(id)?.client);
  const skillsSection = new SkillsTreeSection(skills, (id) => editorHost.registry.get(id)?.entry.name ?? id);
  // @mcp lists them to the model and loads them through the same cache.
  useCases.chat.skills = skills;
  disposables.push(skillsSection, tree.showSkills(skillsSection), registerSkillDocuments(skills, (id, text) => editorHost.serverLog(id, 'warn', text)));
  const all = vscode.Disposable.from(...disposables.reverse());
  return { restorePanel: (viewType, panel, state) => useCases.restorePanel(viewType, panel, state), dispose: () => all.dispose() };
}
