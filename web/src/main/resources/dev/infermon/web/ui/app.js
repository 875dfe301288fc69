// The shell: client-side routing between pages (each page a module loaded on first visit), the
// theme toggle and the global keyboard shortcuts. No framework: pages render into <main>.

const PAGES = {
  '/': 'dashboard', '/dashboard': 'dashboard', '/targets': 'targets', '/alerts': 'alerts',
  '/explore': 'explore', '/diagnosis': 'diagnosis', '/engines': 'engines', '/incident': 'incident',
};
const main = document.getElementById('main');
let current = null;
let currentPage = null;

async function route() {
  const page = PAGES[location.pathname] || 'dashboard';
  for (const a of document.querySelectorAll('nav a[data-page]')) {
    if (a.dataset.page === page) a.setAttribute('aria-current', 'page'); else a.removeAttribute('aria-current');
  }
  if (current && currentPage === page && current.update) {
    current.update();
    return;
  }
  if (current) current.unmount();
  current = null;
  currentPage = page;
  main.textContent = '';
  const mod = await import('./' + page + '.js');
  if (currentPage !== page) return;
  current = mod.mount(main);
  document.title = 'infermon · ' + page[0].toUpperCase() + page.slice(1);
}

/** Navigates inside the app without reloading. */
export function navigate(url) {
  history.pushState(null, '', url);
  route();
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[data-nav]');
  if (!a || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  if (a.getAttribute('href') !== location.pathname + location.search + location.hash) navigate(a.getAttribute('href'));
});
window.addEventListener('popstate', route);

function effectiveTheme() {
  const set = document.documentElement.dataset.theme;
  if (set) return set;
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

function toggleTheme() {
  const next = effectiveTheme() === 'dark' ? 'light' : 'dark';
  document.documentElement.dataset.theme = next;
  try { localStorage.setItem('infermon.theme', next); } catch (e) { /* private mode */ }
  window.dispatchEvent(new Event('themechange'));
}
document.getElementById('theme-toggle').addEventListener('click', toggleTheme);
matchMedia('(prefers-color-scheme: dark)').addEventListener('change', () => window.dispatchEvent(new Event('themechange')));

document.addEventListener('keydown', (e) => {
  const t = e.target;
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  if (t && (t.tagName === 'INPUT' || t.tagName === 'TEXTAREA' || t.tagName === 'SELECT' || t.isContentEditable)) return;
  const go = { 1: '/dashboard', 2: '/targets', 3: '/alerts', 4: '/explore', 5: '/diagnosis', 6: '/engines' }[e.key];
  if (go) { e.preventDefault(); navigate(go); return; }
  if (e.key === 't') { e.preventDefault(); toggleTheme(); return; }
  if (e.key === 'r' && current && current.refresh) { e.preventDefault(); current.refresh(); return; }
  if (e.key === '/') {
    const box = main.querySelector('[data-slash]');
    if (box) { e.preventDefault(); box.focus(); }
  }
});

route();
