import { ApiError, type AloudApi } from '../../core/common/contract/aloudApi';
import { checkApiCall } from '../../core/common/contract/apiArgs';
import { errorOutcome, type CallOutcome } from '../../core/common/contract/callOutcome';
import { toApiError } from '../../core/node/app/appService';
import { isTrustedSender } from '../policy/ipcSender';

/** Who sent an IPC call, as main reads it off the event, and which window is ours. */
export interface IpcCallSender {
  senderFrameUrl: string | null | undefined;
  isMainFrame: boolean;
  senderId: number;
  mainWindowId: number | null;
  appOrigin: string;
}

/**
 * One call of the app API over IPC: checks the sender, then the method and its arguments, then calls the service.
 * Always answers with a CallOutcome, because an Error thrown across IPC loses its code.
 */
export async function handleIpcCall(sender: IpcCallSender, method: unknown, args: unknown, api: AloudApi | null): Promise<CallOutcome> {
  const trusted = isTrustedSender(
    { senderUrl: sender.senderFrameUrl, isMainFrame: sender.isMainFrame, senderId: sender.senderId, mainWindowId: sender.mainWindowId },
    sender.appOrigin,
  );
  if (!trusted) return errorOutcome(new ApiError('bad_request', 'refused: this call did not come from the top frame of the Aloud window'));
  try {
    const call = checkApiCall(method, args);
    if (!api) throw new ApiError('conflict', 'no project is open yet: choose one with File > Open Project…');
    const handler = api[call.method] as (...callArgs: unknown[]) => Promise<unknown>;
    const result = await handler.apply(api, call.args);
    return { ok: true, result: result ?? null };
  } catch (e) {
    return errorOutcome(toApiError(e));
  }
}
