// The skills an @mcp request offers the model: the listings of the running servers that declare
// the Skills extension and are on for models (and in the request's /servers), each bounded by the
// server's timeout; a listing that fails is logged and left out, the request goes on. The loop
// (chat/skillLoading.ts) decides when to ask and what the model reads; this adapts its ports to
// ServerSkills (one verified-file cache with the tree and the editor) and ChatState's pins.
import type { ApprovalDecision } from '../../chat/approval';
import { ListedSkills, SkillPorts, offerSkills } from '../../chat/skillLoading';
import { errorMessage } from '../../protocol/errors';
import type { ServerHandle } from '../../registry/serverRegistry';
import type { UseCaseContext } from '../panels/useCaseContext';
import type { ChatState } from './chatState';

export async function chatSkillPorts(ctx: UseCaseContext, state: ChatState, servers: readonly ServerHandle[], onlyServers: readonly string[] | undefined, approve: (text: string) => Promise<ApprovalDecision>, onSkill: (text: string) => void): Promise<SkillPorts | undefined> {
  const skills = state.skills;
  if (!skills) return undefined;
  const offering = servers.filter((h) => skills.offers(h.id) && state.isServerEnabled(h.id) && (!onlyServers || onlyServers.includes(h.entry.name)));
  const listings = await Promise.all(
    offering.map(async (h): Promise<ListedSkills | undefined> => {
      try {
        return { serverId: h.id, serverName: h.entry.name, skills: (await skills.list(h.id, { timeoutMs: ctx.timeoutMs(h.id) })).skills };
      } catch (error) {
        ctx.deps.log(h.id, 'warn', `Skills left out of an @mcp request: skills/list failed: ${ctx.redact(errorMessage(error))}`);
        return undefined;
      }
    }),
  );
  const offered = offerSkills(listings.filter((l): l is ListedSkills => l !== undefined));
  if (offered.length === 0) return undefined;
  return {
    offered,
    load: (s) => skills.load(s.serverId, s.entry, { timeoutMs: ctx.timeoutMs(s.serverId) }),
    readFile: (s, uri) => skills.readFile(s.serverId, s.entry, uri, { timeoutMs: ctx.timeoutMs(s.serverId) }),
    changes: (s) => {
      const h = ctx.server(s.serverId);
      return h ? state.skillChanges(h, s.entry) : [];
    },
    pinApproved: (s) => {
      const h = ctx.server(s.serverId);
      if (h) void state.pinSkill(h, s.entry);
    },
    approve,
    loaded: state.loadedSkills,
    onSkill: (s, outcome) => {
      ctx.deps.log(s.serverId, outcome.startsWith('refused') ? 'warn' : 'info', `Skill ${s.id} for @mcp: ${outcome}`);
      onSkill(`\n\n> load_skill \`${s.id}\`: ${outcome}\n\n`);
    },
  };
}
