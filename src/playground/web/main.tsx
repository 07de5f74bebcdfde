/** The playground page's entry point (bundled by the page server with esbuild at start). */
import { render } from 'preact';
import { App } from './app.js';

const root = document.getElementById('app');
if (root) render(<App />, root);
