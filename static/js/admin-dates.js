// A date field names a day, not a moment: the admin's "You are N hours behind server time" note is only
// true of a time. On a page without a time field, the server's UTC offset is dropped before the admin's
// date shortcuts read it (they start on "load", after this), so no date field carries the note.
document.addEventListener("DOMContentLoaded", function () {
  if (!document.querySelector("input.vTimeField")) {
    delete document.body.dataset.adminUtcOffset;
  }
});
