import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { appCatalogs } from './app/appCatalogs';
import { connectClient } from './app/connectClient';
import { ApiProvider } from './shared/api';
import { InterfaceLanguageProvider } from './shared/i18n/InterfaceLanguage';
import { installPointerFocusPolicy } from './shared/focusPolicy';
import './app/styles.css';

installPointerFocusPolicy(document);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <InterfaceLanguageProvider catalogs={appCatalogs}>
      <ApiProvider client={connectClient()}>
        <App />
      </ApiProvider>
    </InterfaceLanguageProvider>
  </StrictMode>,
);
