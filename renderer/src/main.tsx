import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { connectClient } from './app/connectClient';
import { installPointerFocusPolicy } from './shared/focusPolicy';
import './app/styles.css';

installPointerFocusPolicy(document);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={connectClient()} />
  </StrictMode>,
);
