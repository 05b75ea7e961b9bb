{#- nbgrader 0.9.6's formgrade_404.tpl imports macros from a file it does not ship (a 500); the
    course's: a plain page, every value escaped (autoescape), no script. -#}
<!DOCTYPE html>
<html lang="es">
<head>
  <meta charset="utf-8">
  <title>{{ notebook_id }}</title>
  <link rel="stylesheet" href="{{ resources.base_url }}/formgrader/static/node_modules/bootstrap/dist/css/bootstrap.min.css" />
</head>
<body>
  <div class="container">
    <ol class="breadcrumb">
      <li><a href="{{ resources.base_url }}/formgrader/gradebook">Manual Grading</a></li>
      <li><a href="{{ resources.base_url }}/formgrader/gradebook/{{ resources.assignment_id | urlencode }}">{{ resources.assignment_id }}</a></li>
      <li class="active">{{ notebook_id }}</li>
    </ol>
    <div class="panel panel-default">
      <div class="panel-heading">
        <h4 class="panel-title">
          <span>{{ notebook_id }}</span>
          <span class="pull-right">{% if resources.index >= 0 %}Entrega {{ resources.index + 1 }} de {{ resources.total }}{% else %}Entrega sin calificar ({{ resources.total }} calificadas){% endif %}</span>
        </h4>
      </div>
      <div class="panel-body" id="notebook-container">
        <p><strong>Esta entrega no tiene cuaderno calificado</strong> (falta {{ filename }}).</p>
        <p>O todavía no se ha calificado (pulsa «autograde» en <em>Manage Submissions</em> o ejecuta
        <code>make grade</code>), o nbgrader no pudo calificarla: el motivo está en la tabla que imprime
        <code>make grade</code>, en la columna de observaciones, y en <code>informe/{{ resources.assignment_id }}/incidencias.csv</code>
        (<code>make informe</code>). El cuaderno que entregó sigue en <code>submitted/</code>, sin tocar.</p>
      </div>
    </div>
  </div>
</body>
</html>
