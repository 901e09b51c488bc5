import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { Services } from '../engine/services.js';

/** The operation a troubleshooting prompt starts; its input schema names the fields the prompt fills. */
const START_SESSION = 'start_diagnostic_session';
const RESPOND = 'respond_to_diagnostic_session';

export const TROUBLESHOOT_PROMPT = {
  name: 'troubleshoot_error_code',
  title: 'Troubleshoot an error code',
  description:
    'Starts a guided troubleshooting session for a heat pump showing an error code: the assistant starts ' +
    'the session with the start_diagnostic_session tool, then asks one action at a time and cites the ' +
    'manual page of every step.',
  arguments: [
    { name: 'brand', description: 'Brand of the heat pump, as on its nameplate', required: true },
    { name: 'model', description: 'Model of the indoor or outdoor unit showing the code', required: true },
    { name: 'error_code', description: 'The error code the unit displays', required: true },
    {
      name: 'equipment',
      description:
        'air_water (hydronic) or air_air (split, ducted); taken from the model when the manuals know it',
      required: false,
    },
  ],
} as const;

const EQUIPMENT = new Set(['air_water', 'air_air']);

function argument(args: Record<string, string> | undefined, name: string): string | undefined {
  const value = args?.[name]?.trim();
  return value ? value : undefined;
}

/** The messages of the troubleshooting prompt: the session request to start, and how to lead it. */
export function troubleshootMessages(services: Services, args: Record<string, string> | undefined) {
  const missing = TROUBLESHOOT_PROMPT.arguments
    .filter((a) => a.required && argument(args, a.name) === undefined)
    .map((a) => a.name);
  if (missing.length > 0) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `missing argument(s): ${missing.join(', ')}`);
  }
  const equipment = argument(args, 'equipment');
  if (equipment !== undefined && !EQUIPMENT.has(equipment)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'equipment must be air_water or air_air');
  }
  if (!services.operation(START_SESSION)) {
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'guided sessions are not served here');
  }
  const request = {
    brand: argument(args, 'brand'),
    model: argument(args, 'model'),
    ...(equipment === undefined ? {} : { equipment }),
    error_code: argument(args, 'error_code'),
  };
  const text =
    `My ${request.brand} heat pump, model ${request.model}, shows error code ${argument(args, 'error_code')}. ` +
    `Start a guided troubleshooting session by calling the ${START_SESSION} tool with these arguments:\n` +
    `${JSON.stringify(request, null, 2)}\n` +
    `Then ask me the session's next_action, one at a time, and send each answer with ${RESPOND}. ` +
    'For every step, quote the excerpt of the manual and name the document and page it cites. ' +
    'If the session cannot identify the model or the code, say so and do not guess.';
  return {
    description: `Guided troubleshooting of ${request.brand} ${request.model}, code ${argument(args, 'error_code')}`,
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  };
}
