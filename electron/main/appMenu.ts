import { Menu, type MenuItemConstructorOptions } from 'electron';

export interface AppMenuActions {
  openProject(): void;
  /** null while nothing has been exported in this run */
  lastExport(): string | null;
  revealExport(file: string): void;
}

/** File > Open Project… and Reveal Last Export; main picks every path, the page never names one. */
export function installAppMenu(actions: AppMenuActions, devTools: boolean): void {
  const isMac = process.platform === 'darwin';
  const file: MenuItemConstructorOptions = {
    label: 'File',
    submenu: [
      { label: 'Open Project…', accelerator: 'CmdOrCtrl+O', click: () => actions.openProject() },
      {
        label: 'Reveal Last Export in Folder',
        click: () => {
          const exported = actions.lastExport();
          if (exported) actions.revealExport(exported);
        },
      },
      { type: 'separator' },
      isMac ? { role: 'close' } : { role: 'quit' },
    ],
  };
  const view: MenuItemConstructorOptions = {
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(devTools ? [{ role: 'toggleDevTools' } as const] : []),
      { type: 'separator' },
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { role: 'togglefullscreen' },
    ],
  };
  const template: MenuItemConstructorOptions[] = [
    ...(isMac ? [{ role: 'appMenu' } as const] : []),
    file,
    { role: 'editMenu' },
    view,
    { role: 'windowMenu' },
  ];
  Menu.setApplicationMenu(Menu.buildFromTemplate(template));
}
