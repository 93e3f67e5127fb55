// Names for the admin's fields that Django's tabular inlines and select2 leave unnamed (axe: "label",
// "select-name", "aria-input-field-name", "empty-table-header"): a field in an inline's row is named by its
// column's header and the row's number, a player box (select2) by its select's name, and an inline's empty
// header cell becomes a plain cell.
(function () {
  "use strict";

  function text(element) {
    return element ? element.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function hasName(field) {
    if (field.getAttribute("aria-label") || field.getAttribute("aria-labelledby")) {
      return true;
    }
    return Boolean(field.id && document.querySelector("label[for='" + field.id + "']"));
  }

  function nameInlineFields(root) {
    root.querySelectorAll("table").forEach(function (table) {
      var headers = Array.prototype.map.call(table.querySelectorAll("thead th, thead td"), text);
      table.querySelectorAll("thead th").forEach(function (th) {
        if (!text(th)) {
          var cell = document.createElement("td");
          cell.className = th.className;
          th.replaceWith(cell);
        }
      });
      table.querySelectorAll("tbody tr").forEach(function (row, rowIndex) {
        Array.prototype.forEach.call(row.cells, function (cell, column) {
          cell.querySelectorAll("input:not([type=hidden]), select, textarea").forEach(function (field) {
            if (hasName(field)) {
              return;
            }
            var header = headers[column] || (field.type === "checkbox" ? "✓" : "");
            var label = header ? header + " (" + (rowIndex + 1) + ")" : field.name;
            field.setAttribute("aria-label", label);
          });
        });
      });
    });
  }

  function nameSelect2(root) {
    root.querySelectorAll("select.admin-autocomplete").forEach(function (select) {
      var box = select.parentElement && select.parentElement.querySelector(".select2-selection");
      if (!box) {
        return;
      }
      var label = select.id && document.querySelector("label[for='" + select.id + "']");
      var name = text(label) || select.getAttribute("aria-label") || select.name;
      box.setAttribute("aria-label", name);
      box.removeAttribute("aria-labelledby");
      var rendered = box.querySelector(".select2-selection__rendered");
      if (rendered) {
        rendered.setAttribute("aria-label", name);
      }
    });
  }

  function nameAll(root) {
    nameInlineFields(root);
    nameSelect2(root);
  }

  // Before the admin's autocompletes start (on DOMContentLoaded; this script is deferred, so it runs first): an
  // empty player box shows its column's or label's name as placeholder, which select2 gives its box as name.
  document.querySelectorAll("select.admin-autocomplete").forEach(function (select) {
    if (select.dataset.placeholder) {
      return;
    }
    var label = select.id && document.querySelector("label[for='" + select.id + "']");
    var name = text(label);
    if (!name) {
      var cell = select.closest("td");
      var table = select.closest("table");
      if (cell && table) {
        var header = table.querySelectorAll("thead th, thead td")[cell.cellIndex];
        name = text(header);
      }
    }
    select.dataset.placeholder = name || "…";
  });

  window.addEventListener("load", function () {
    nameAll(document);
  });
  // select2 draws its boxes when the admin's scripts start them, which may be after "load": name each box as
  // it appears (only nodes added are watched, so naming them does not call this again).
  new MutationObserver(function () {
    nameSelect2(document);
  }).observe(document.body || document.documentElement, { childList: true, subtree: true });
  nameSelect2(document);
  document.addEventListener("formset:added", function (event) {
    window.setTimeout(function () {
      nameAll(event.target.closest("table") || document);
    }, 0);
  });
})();
