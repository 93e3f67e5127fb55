// The crosstable page (templates/admin/ratings/table/grid.html) grows as the director types: once the last
// row is filled in, an empty row is added below it, from the formset's empty row, with its player box made an
// autocomplete as the admin does for a new inline ("formset:added"). Nothing reloads, nothing typed is lost.
// Without this script the page still works: it comes with blank rows and a "Rows shown" form.
(function () {
  "use strict";

  function start() {
    var form = document.getElementById("grid-form");
    var template = document.getElementById("grid-empty-row");
    var body = document.querySelector("#grid tbody");
    if (!form || !template || !body) {
      return;
    }
    var prefix = form.dataset.prefix;
    var total = form.querySelector("input[name='" + prefix + "-TOTAL_FORMS']");
    var sizeForm = document.querySelector("form.grid-size");
    if (sizeForm) {
      sizeForm.hidden = true; // rows come by themselves now
    }
    var addButton = document.getElementById("grid-add-row");
    if (addButton) {
      addButton.hidden = false;
    }

    function isFilled(row) {
      var fields = row.querySelectorAll("input.grid-cells, select");
      for (var i = 0; i < fields.length; i += 1) {
        if (fields[i].value && fields[i].value.trim() !== "") {
          return true;
        }
      }
      return false;
    }

    function addRow() {
      var index = parseInt(total.value, 10);
      var html = template.innerHTML.split("__prefix__").join(String(index)).split("__number__").join(String(index + 1));
      body.insertAdjacentHTML("beforeend", html);
      total.value = String(index + 1);
      var row = body.lastElementChild;
      row.querySelector(".grid-number").textContent = String(index + 1);
      var select = row.querySelector("select");
      var label = select && row.querySelector("label[for='" + select.id + "']");
      if (select && label) {
        select.dataset.placeholder = label.textContent.trim(); // the empty box's name, as for the rows before
      }
      row.dispatchEvent(new CustomEvent("formset:added", { bubbles: true, detail: { formsetName: prefix } }));
      return row;
    }

    function growIfLastFilled() {
      var last = body.lastElementChild;
      if (last && isFilled(last)) {
        addRow();
      }
    }

    form.addEventListener("input", growIfLastFilled);
    form.addEventListener("change", growIfLastFilled);
    if (window.django && window.django.jQuery) {
      // The player boxes are select2 widgets: their choice is announced through jQuery only.
      window.django.jQuery(form).on("change", "select", growIfLastFilled);
    }
    if (addButton) {
      addButton.addEventListener("click", function () {
        var row = addRow();
        var cells = row.querySelector("input.grid-cells");
        if (cells) {
          cells.focus();
        }
      });
    }
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
