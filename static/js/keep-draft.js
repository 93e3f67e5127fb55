// A form with data-keep-draft (the report form, templates/ratings/report.html) keeps what the visitor typed when
// he switches the site's language with the footer's form, which reloads the page: as that form is sent, the
// fields the attribute names go into this tab's sessionStorage, and the page put back in the new language fills
// them in once. Nothing leaves the tab, and nothing is kept past that one reload. Without this script the switch
// still works; the typed text is lost, as before.
(function () {
  "use strict";

  var KEY = "keep-draft:" + window.location.pathname + window.location.search;

  function fields(form) {
    var names = (form.dataset.keepDraft || "").split(/\s+/).filter(Boolean);
    return names
      .map(function (name) {
        return form.elements.namedItem(name);
      })
      .filter(function (field) {
        return field && field.name; // a RadioNodeList or nothing is left alone
      });
  }

  function start() {
    var form = document.querySelector("form[data-keep-draft]");
    var language = document.querySelector("form.language");
    if (!form || !window.sessionStorage) {
      return;
    }
    var kept = window.sessionStorage.getItem(KEY);
    window.sessionStorage.removeItem(KEY);
    if (kept) {
      var values = JSON.parse(kept);
      fields(form).forEach(function (field) {
        if (Object.prototype.hasOwnProperty.call(values, field.name)) {
          field.value = values[field.name];
        }
      });
    }
    if (language) {
      language.addEventListener("submit", function () {
        var values = {};
        fields(form).forEach(function (field) {
          if (field.value) {
            values[field.name] = field.value;
          }
        });
        window.sessionStorage.setItem(KEY, JSON.stringify(values));
      });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
