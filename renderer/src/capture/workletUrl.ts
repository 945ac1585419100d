/** The capture worklet, served from our own origin (the CSP allows no blob: scripts). */
export const WORKLET_URL = '/capture-worklet.js';
