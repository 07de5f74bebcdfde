// Placeholder until the page (Preact) lands: shows that the bundle is served.
const app = document.getElementById('app');
if (app) app.textContent = 'confdesk playground';
