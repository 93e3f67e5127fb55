// Lighthouse's accessibility, best-practices and SEO audits of pages of a running site, in one headless
// Chromium (CHROME_PATH), on a phone (Lighthouse's default) and on a desktop (its desktop preset):
//   node tests/axe/lighthouse.mjs URL [URL ...]
// prints one JSON array: per page and form factor, the score of each category (0 to 1) and every audit that
// lowers one, with the elements it names. tests/public/test_lighthouse.py runs it.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";

const CATEGORIES = ["accessibility", "best-practices", "seo"];
const FORMS = { phone: undefined, desktop: desktopConfig };

function failing(lhr) {
  const found = [];
  for (const id of CATEGORIES) {
    for (const ref of lhr.categories[id].auditRefs) {
      const audit = lhr.audits[ref.id];
      if (ref.weight > 0 && audit.score !== null && audit.score < 1) {
        const items = (audit.details && audit.details.items) || [];
        const where = items.slice(0, 3).map((item) => JSON.stringify(item.node?.snippet ?? item.source ?? item.url ?? item));
        found.push({ category: id, id: ref.id, title: audit.title, where });
      }
    }
  }
  return found;
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH,
  chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"],
});
const results = [];
try {
  for (const url of process.argv.slice(2)) {
    for (const [form, config] of Object.entries(FORMS)) {
      const flags = { port: chrome.port, output: "json", logLevel: "error", onlyCategories: CATEGORIES };
      const { lhr } = await lighthouse(url, flags, config);
      const scores = Object.fromEntries(CATEGORIES.map((id) => [id, lhr.categories[id].score]));
      results.push({ url, form, scores, error: lhr.runtimeError?.message ?? null, failing: failing(lhr) });
    }
  }
} finally {
  await chrome.kill();
}
console.log(JSON.stringify(results));
