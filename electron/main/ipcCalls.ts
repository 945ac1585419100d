import type { AloudApi } from '../../core/common/contract/aloudApi';
import { Refusal } from '../../core/common/refusal/refusal';
import { errorOutcome, type CallOutcome } from '../../core/common/refusal/callOutcome';
import { dispatchApiCall } from '../../core/node/app/apiDispatcher';
import { isTrustedSender } from '../policy/ipcSender';

/** Who sent an IPC call, as main reads it off the event, and which window is ours. */
export interface IpcCallSender {
  senderFrameUrl: string | null | undefined;
  isMainFrame: boolean;
  senderId: number;
  mainWindowId: number | null;
  appOrigin: string;
}

/** One call of the app API over IPC: the sender is checked here, everything else by the shared dispatcher. */
export async function handleIpcCall(sender: IpcCallSender, method: unknown, args: unknown, api: AloudApi | null): Promise<CallOutcome> {
  const trusted = isTrustedSender(
    { senderUrl: sender.senderFrameUrl, isMainFrame: sender.isMainFrame, senderId: sender.senderId, mainWindowId: sender.mainWindowId },
    sender.appOrigin,
  );
  if (!trusted) return errorOutcome(new Refusal('bad_request', 'refused: this call did not come from the top frame of the Aloud window'));
  return dispatchApiCall(api, method, args);
}
