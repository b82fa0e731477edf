// After Sass, Bootstrap's "Optimize" advice: only the rules whose classes appear in the pages, the scripts (which set
// classes too) and the Python code, or in crispy-bootstrap5's form templates. Custom properties and attribute
// selectors ([data-bs-theme=dark]) stay, and a word anywhere in those files keeps its rule (an alert's colour named in a
// message's tags, for one). A new Bootstrap class in a template needs `make css`: tests/test_bootstrap_css.py says so.
module.exports = {
  content: [
    "../templates/**/*.html",
    "../static/scores/*.js",
    "../scores/**/*.py",
    "../.venv/lib/python3*/site-packages/crispy_bootstrap5/templates/**/*.html",
  ],
  css: ["build/bootstrap.css"],
  output: "build/",
};
