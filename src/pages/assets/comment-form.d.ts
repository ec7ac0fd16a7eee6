// The guest comment form script (comment-form.js), imported as text and served as /assets/comment-form.js.
declare const text: string;
export default text;
