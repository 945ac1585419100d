import { CaptureError, captureErrorFromMediaError } from './captureErrors';

export interface InputDevice {
  /** pass to startCapture({ deviceId }) */
  deviceId: string;
  /** empty until the page has been granted microphone access once (see `unlockLabels`) */
  label: string;
  groupId: string;
  /** Chromium and Electron list the system default as a pseudo-device with id "default" */
  isDefault: boolean;
}

/**
 * The microphones the page can record from. Browsers hide labels until microphone access has been
 * granted; with `unlockLabels` a missing label makes this open and immediately close the default
 * microphone once (which may prompt) and list again. Rejects with a CaptureError.
 */
export async function listInputDevices(options: { unlockLabels?: boolean } = {}): Promise<InputDevice[]> {
  const mediaDevices = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
  if (!mediaDevices || typeof mediaDevices.enumerateDevices !== 'function') {
    // i18n-ignore: a technical detail for the log, after the person's translated guidance (capture.error.*)
    throw new CaptureError('unsupported', 'navigator.mediaDevices.enumerateDevices is missing (an insecure http: page?)');
  }
  const list = async (): Promise<InputDevice[]> => {
    const devices = await mediaDevices.enumerateDevices();
    return devices
      .filter((device) => device.kind === 'audioinput')
      .map((device) => ({
        deviceId: device.deviceId,
        label: device.label,
        groupId: device.groupId,
        isDefault: device.deviceId === 'default',
      }));
  };
  try {
    const inputs = await list();
    if (!options.unlockLabels || inputs.every((device) => device.label !== '')) return inputs;
    const stream = await mediaDevices.getUserMedia({ audio: true, video: false });
    for (const track of stream.getTracks()) track.stop();
    return await list();
  } catch (error) {
    throw captureErrorFromMediaError(error);
  }
}
