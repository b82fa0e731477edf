// Bootstrap's own build step after Sass: the vendor prefixes for the browsers in .browserslistrc (Bootstrap's list).
module.exports = { plugins: [require("autoprefixer")({ cascade: false })] };
