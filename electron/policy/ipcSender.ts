import { isAppUrl } from './appOrigin';

export interface IpcSender {
  /** URL of the frame that sent the message (null when the frame is gone) */
  senderUrl: string | null | undefined;
  isMainFrame: boolean;
  /** webContents id of the sender */
  senderId: number;
  /** webContents id of Aloud's window (null before it exists) */
  mainWindowId: number | null;
}

/** A call is trusted only from the top frame of Aloud's own window, showing a page of the app origin. */
export function isTrustedSender(sender: IpcSender, appOrigin: string): boolean {
  return (
    sender.mainWindowId !== null &&
    Number.isInteger(sender.senderId) &&
    sender.senderId === sender.mainWindowId &&
    sender.isMainFrame === true &&
    isAppUrl(sender.senderUrl, appOrigin)
  );
}
