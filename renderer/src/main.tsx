import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { connectClient } from './app/client';
import { installPointerFocusPolicy } from './app/focusPolicy';
import './styles.css';

installPointerFocusPolicy(document);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App client={connectClient()} />
  </StrictMode>,
);
