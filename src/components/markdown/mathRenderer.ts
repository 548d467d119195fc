/** KaTeX's chunk: the renderer and the stylesheets its markup needs, fetched with the first formula. */
import 'katex/dist/katex.min.css';
import './math.css';

export { rehypeFormulas } from '../../markdown/rehypeFormulas.ts';
